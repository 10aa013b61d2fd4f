import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GSM_03_38,
  MESSAGE_KINDS,
  MessageTemplates,
  SMS_MAX_SEGMENTS,
  linksIn,
  renderTemplate,
  smsSegments,
  templateProblem,
  toGsm7,
  unknownVariables,
} from './templates.js';
import { builtInTemplate } from './message-texts.js';

const { basic: GSM_BASIC, extension: GSM_EXTENSION } = GSM_03_38;

describe('message templates (docs/product.md §8)', () => {
  it('fills the variables; a variable without a value is empty', () => {
    expect(
      renderTemplate('{venue}: oi {name}, você é o {position}º. {link}', {
        venue: 'Bistrô',
        name: 'Ana',
        position: 3,
        link: 'https://x/y',
      }),
    ).toBe('Bistrô: oi Ana, você é o 3º. https://x/y');
    expect(renderTemplate('{venue} {minutes}min', { venue: 'V' })).toBe('V min');
  });

  it('names unknown variables and refuses them, and a join text without {link}', () => {
    expect(unknownVariables('{venue} {nome} {link} {hold}')).toEqual(['nome']);
    const refused = MessageTemplates.safeParse({ call: { pt: '{venue}: {nome}' } });
    expect(refused.success).toBe(false);
    const noLink = MessageTemplates.safeParse({ join: { en: '{venue}: you joined.' } });
    expect(noLink.success).toBe(false);
    expect(noLink.error?.issues[0]?.path).toEqual(['join', 'en']);
    expect(MessageTemplates.safeParse({ join: { pt: '{venue}: na fila. {link}' }, seated: { en: 'Enjoy, {name}!' } }).success).toBe(true);
    expect(MessageTemplates.safeParse({ dessert: { pt: 'x' } }).success).toBe(false);
  });

  it('has a built-in text for every kind and language, each with known variables only; join and call keep the link', () => {
    for (const kind of MESSAGE_KINDS) {
      for (const lang of ['pt', 'en'] as const) {
        const text = builtInTemplate(kind, lang, { hideReceptionistHint: false, holdMinutes: 10 });
        expect(unknownVariables(text)).toEqual([]);
        if (kind === 'join' || kind === 'call' || kind === 'gettingClose') expect(text).toContain('{link}');
      }
    }
    expect(builtInTemplate('call', 'pt', { hideReceptionistHint: true, holdMinutes: 0 })).toBe(
      '{venue}: sua vez! {link} Responda 1 (a caminho) ou 9 (sair).',
    );
  });

  it('counts SMS segments in GSM-7 (extension characters twice) or UCS-2', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1, perSegment: 160 });
    expect(smsSegments('a'.repeat(161)).segments).toBe(2);
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsSegments('você')).toMatchObject({ encoding: 'UCS-2', units: 4, segments: 1 });
    expect(smsSegments('ã'.repeat(70)).segments).toBe(1);
    expect(smsSegments('ã'.repeat(71)).segments).toBe(2);
    expect(smsSegments('é à è ñ ü Ç').encoding).toBe('GSM-7');
  });
});

describe('SMS sem acentos (docs/product.md §8)', () => {
  it('drops accents only where GSM-7 lacks the letter, and keeps the letters it has', () => {
    expect(toGsm7('Você está na posição 3; São Gonçalo, ônibus, açaí, pão')).toBe('Voce esta na posicao 3; Sao Goncalo, onibus, acai, pao');
    // GSM 03.38's basic set has these: they stay, and the text is still GSM-7.
    const kept = 'é É à è ù ì ò Ç ü Ü ñ Ñ ä Ä ö Ö å Å Ø ø Æ æ ß £ ¥ § ¿ ¡ € [ ] { } ~ ^ | \\';
    expect(toGsm7(kept)).toBe(kept);
    expect(toGsm7('À Á Â Ã Ê Í Ó Ô Õ Ú á â ã ê í ó ô õ ú ç')).toBe('A A A A E I O O O U a a a e i o o o u c');
  });

  it('writes what GSM-7 lacks plainly: quotes, dashes, ordinals, spaces; emoji go; the rest is ?', () => {
    expect(toGsm7('“Mesa” ‘ok’ – já — 3º 1ª… 20°')).toBe('"Mesa" \'ok\' - ja - 3o 1a... 20o');
    expect(toGsm7('a\u00a0b\tc')).toBe('a b c');
    expect(toGsm7('Oi 👋🏽 pizza 🍕! 👨‍👩‍👧 ❤️ 🇧🇷')).toBe('Oi  pizza !   ');
    expect(toGsm7('e\u0301 u\u0303')).toBe('é u');
    expect(toGsm7('東京 Привет')).toBe('?? ??????');
    for (const text of ['Café São Jorge — “ótimo” 🍝', 'Ação ☕ 1ª vez', 'Жук']) expect(smsSegments(toGsm7(text)).encoding).toBe('GSM-7');
  });

  it('counts every code point as the lists say: one septet, two (the extension), or UCS-2', () => {
    const wrong: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += code < 0x10000 ? 1 : 97) {
      const char = String.fromCodePoint(code);
      const septets = GSM_BASIC.includes(char) ? 1 : GSM_EXTENSION.includes(char) ? 2 : 0;
      const counted = smsSegments(char);
      const right = septets ? counted.encoding === 'GSM-7' && counted.units === septets : counted.encoding === 'UCS-2';
      if (!right) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('writes any text as the character-by-character reading of the lists does', () => {
    // The reading before the lists became one class: each character looked up in both lists.
    const inLists = (char: string) => GSM_BASIC.includes(char) || GSM_EXTENSION.includes(char);
    const lookalikes: Record<string, string> = { º: 'o', '’': "'", '—': '-', '…': '...', Œ: 'OE', ı: 'i' };
    const byCharacter = (text: string) => {
      let out = '';
      for (const char of text.normalize('NFC')) {
        if (inLists(char)) out += char;
        else if (lookalikes[char] !== undefined) out += lookalikes[char];
        else if (/^\s$/u.test(char)) out += ' ';
        else if (/^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u200b-\u200f\u2060]|\ufe0e|\ufe0f|[\u{1f1e6}-\u{1f1ff}])$/u.test(char))
          continue;
        else {
          const bare = char.normalize('NFD').replace(/\p{M}+/gu, '');
          if (bare.length > 0) out += [...bare].every(inLists) ? bare : '?';
        }
      }
      return out;
    };
    const pieces = [
      ...(GSM_BASIC + GSM_EXTENSION),
      ...'ãõçêâíóúÁÉÍÓÚÃÕ',
      ...Object.keys(lookalikes),
      '\u0301',
      '\u0303',
      '\u00a0',
      '\t',
      '🍕',
      '👋🏽',
      '\u200d',
      '\ufe0f',
      '🇧',
      '東',
      'Ж',
      '\ud800',
      '\udc00',
    ];
    // Pieces, not any string: a character of the product's own lookalike table outside `lookalikes` would differ.
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(toGsm7(value)).toBe(byCharacter(value));
        const counted = smsSegments(value);
        expect(counted.encoding).toBe([...value].every(inLists) ? 'GSM-7' : 'UCS-2');
      }),
      { numRuns: 3000 },
    );
  });

  // The worst case the built-in texts are written for: a 30-character venue name with accents (as
  // many in Brazil), a real position link (PUBLIC_BASE_URL, a 22-character entry id), a hold of 120
  // minutes and place 50. The README's table comes from tools/sms-segments.ts with the same values.
  const venue = 'Cantina e Pizzaria São Gonçalo';
  const link = 'https://vez.example/waitlist/Xk3pQ9rT2vLm8nB4cD6fGh';
  const values = { venue, link, position: 50, hold: 120, name: 'Ana' };
  const variants = [
    { hideReceptionistHint: false, holdMinutes: 120 },
    { hideReceptionistHint: true, holdMinutes: 120 },
    { hideReceptionistHint: false, holdMinutes: 0 },
    { hideReceptionistHint: true, holdMinutes: 0 },
  ];

  it('every built-in text, pt and en, fits one GSM-7 segment with a long venue name and a real link, once without accents', () => {
    expect(venue).toHaveLength(30);
    for (const kind of MESSAGE_KINDS) {
      for (const lang of ['pt', 'en'] as const) {
        for (const options of variants) {
          const text = toGsm7(renderTemplate(builtInTemplate(kind, lang, options), values));
          expect(smsSegments(text), `${kind} ${lang} ${JSON.stringify(options)}: ${text}`).toMatchObject({
            encoding: 'GSM-7',
            segments: 1,
          });
        }
      }
    }
  });

  it('every built-in English text fits one GSM-7 segment as written, with a plain venue name', () => {
    for (const kind of MESSAGE_KINDS) {
      for (const options of variants) {
        const text = renderTemplate(builtInTemplate(kind, 'en', options), { ...values, venue: 'Cantina e Pizzaria Sao Goncalo' });
        expect(smsSegments(text), `${kind}: ${text}`).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      }
    }
  });

  it('the join link with a login passport (43 more characters) takes two segments: too long for one with the replies', () => {
    const text = toGsm7(
      renderTemplate(builtInTemplate('join', 'pt', variants[0]!), { ...values, link: `${link}?passport=${'p'.repeat(43)}` }),
    );
    expect(smsSegments(text)).toMatchObject({ encoding: 'GSM-7', segments: 2 });
  });
});

describe('links in a text (docs/security.md, template links)', () => {
  it('finds addresses with a scheme and bare hosts a phone would link', () => {
    expect(linksIn('Veja https://evil.example/x?y=1 e http://user@Other.Example:8080/p').map((l) => l.host)).toEqual([
      'evil.example',
      'other.example',
    ]);
    expect(linksIn('Cardápio em bit.ly/abc, www.promo.net e promo.com.br.').map((l) => l.host)).toEqual([
      'bit.ly',
      'www.promo.net',
      'promo.com.br',
    ]);
  });
  it('leaves words with a dot, e-mail addresses and our {link} alone', () => {
    expect(linksIn('Obrigado.Volte sempre, Sr.Silva! {link} ana@exemplo.com')).toEqual([]);
  });
});

describe('templateProblem', () => {
  const check = {
    venueName: 'Bistrô Demo',
    publicBaseUrl: 'https://vez.example',
    holdMinutes: 10,
    allowedHosts: ['vez.example', 'menu.example'],
  };
  it('accepts the built-in texts and links to the allowed hosts', () => {
    for (const kind of MESSAGE_KINDS)
      for (const lang of ['pt', 'en'] as const)
        expect(templateProblem(kind, builtInTemplate(kind, lang, { hideReceptionistHint: false, holdMinutes: 10 }), check)).toBeUndefined();
    expect(templateProblem('call', '{venue}: sua vez! Cardápio: https://menu.example/a {link}', check)).toBeUndefined();
  });
  it('names a link to another host', () => {
    expect(templateProblem('call', '{venue}: sua vez! https://vez.example.evil.com/x {link}', check)).toEqual({
      kind: 'link',
      link: 'https://vez.example.evil.com/x',
    });
  });
  it(`refuses a text past ${SMS_MAX_SEGMENTS} segments at its longest values (the name, the link with a passport)`, () => {
    // 200 UCS-2 units and the plain link fit 268; with the join's passport link they do not.
    const text = `${'ã'.repeat(200)} {link}`;
    expect(templateProblem('call', text, check)).toBeUndefined();
    expect(templateProblem('join', text, check)).toEqual({ kind: 'tooLong', segments: 5 });
    expect(templateProblem('call', `{name} ${'ã'.repeat(200)} {link}`, check)).toEqual({ kind: 'tooLong', segments: 5 });
    expect(smsSegments('a'.repeat(612)).segments).toBe(4);
    expect(smsSegments('ã'.repeat(269)).segments).toBe(5);
  });
  it('the built-in texts fit the cap with a 60-letter venue name in UCS-2 and the longest link', () => {
    for (const kind of MESSAGE_KINDS)
      for (const lang of ['pt', 'en'] as const) {
        const text = builtInTemplate(kind, lang, { hideReceptionistHint: false, holdMinutes: 120 });
        expect(templateProblem(kind, text, { ...check, venueName: 'Ô'.repeat(60) })).toBeUndefined();
      }
  });
});

describe('the answers to a reply come from the one home of message texts', () => {
  it('"more time" names the minutes the reply gave', async () => {
    const { replyConfirmation } = await import('./message-texts.js');
    expect(replyConfirmation('en', 'needMoreTime', 'Bistrô Demo', 15)).toBe('Bistrô Demo knows you need 15 more minutes.');
    expect(replyConfirmation('pt', 'needMoreTime', 'Bistrô Demo')).toBe('Bistrô Demo já sabe que você precisa de mais 10 minutos.');
  });
});
