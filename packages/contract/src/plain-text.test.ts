import { describe, expect, it } from 'vitest';
import { hasControlCharacters, isCalendarDate } from './plain-text.js';

describe('plain text (docs/security.md)', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['ESC', '\u001b[31m'],
    ['DEL', 'a\u007f'],
    ['C1 NEL', 'a\u0085'],
    ['C1 CSI', '\u009b2J'],
    ['LRE', '\u202a'],
    ['RLO', 'abc\u202edef'],
    ['PDF', '\u202c'],
    ['LRI', '\u2066'],
    ['PDI', '\u2069'],
    ['line separator', '\u2028'],
    ['lone high surrogate', 'a\ud800'],
    ['lone low surrogate', '\udc00b'],
  ])('refuses %s', (_name, value) => {
    expect(hasControlCharacters(value)).toBe(true);
    expect(hasControlCharacters(value, true)).toBe(true);
  });

  it('takes letters of any script, emoji and the direction marks LRM/RLM', () => {
    for (const value of ['Ana Souza', 'João D’Ávila', 'שולחן\u200f 12', 'مرحبا\u200e', '李小龙', '😀 família 👨‍👩‍👧', 'ę̸̢̛']) {
      expect(hasControlCharacters(value), value).toBe(false);
    }
  });

  it('allows line breaks and tabs only in multi-line text', () => {
    for (const value of ['a\nb', 'a\r\nb', 'a\tb']) {
      expect(hasControlCharacters(value)).toBe(true);
      expect(hasControlCharacters(value, true)).toBe(false);
    }
  });

  it('knows real calendar dates from 1900 on', () => {
    for (const value of ['1990-05-17', '2000-02-29', '1900-01-01', '2999-12-31']) expect(isCalendarDate(value), value).toBe(true);
    for (const value of [
      '0000-00-00',
      '0000-01-01',
      '1899-12-31',
      '2026-02-30',
      '2023-02-29',
      '1990-13-01',
      '1990-00-10',
      '1990-1-1',
      '19900101',
      ' 1990-05-17',
      '3000-01-01',
    ]) {
      expect(isCalendarDate(value), value).toBe(false);
    }
  });
});
