import { describe, expect, it } from 'vitest';
import { MESSAGE_KINDS, MessageTemplates, builtInTemplate, renderTemplate, smsSegments, unknownVariables } from './templates.js';

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
