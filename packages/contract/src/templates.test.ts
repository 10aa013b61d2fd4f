import { describe, expect, it } from 'vitest';
import {
  MESSAGE_KINDS,
  MessageTemplates,
  SMS_MAX_SEGMENTS,
  builtInTemplate,
  linksIn,
  renderTemplate,
  smsSegments,
  templateProblem,
  unknownVariables,
} from './templates.js';

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
      '{venue}: chegou a sua vez! {link} Responda 1 se estiver a caminho, 9 para sair.',
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

  it('every built-in English text fits one GSM-7 segment with a real link', () => {
    const link = 'https://vez.example/waitlist/AAAAAAAAAAAAAAAAAAAAAA';
    const values = { venue: 'Demo Bistro', link, position: 3, hold: 10, name: 'Ana' };
    for (const kind of ['join', 'call', 'gettingClose', 'seated', 'noShow'] as const) {
      const text = renderTemplate(builtInTemplate(kind, 'en', { hideReceptionistHint: false, holdMinutes: 10 }), values);
      expect(smsSegments(text), `${kind}: ${text}`).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    }
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
