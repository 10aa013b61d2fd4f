import * as z from 'zod/mini';

/**
 * Characters no person types into a name, a note or a venue text (docs/security.md):
 * C0 controls (NUL, ESC, …), DEL, C1 controls, the bidirectional embeddings, overrides and
 * isolates (U+202A–U+202E, U+2066–U+2069: they reorder what staff and other diners see, the
 * "Trojan Source" trick), the line and paragraph separators U+2028/U+2029, and lone surrogates
 * (not text; databases refuse or mangle them). The marks U+200E/U+200F (LRM/RLM) stay allowed:
 * they only set the direction of neutral characters next to them and are typed in right-to-left
 * names; they cannot reorder a run of text.
 */
const SINGLE_LINE_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Multi-line text (notes, wording) may also hold line feeds, carriage returns and tabs. */
const MULTI_LINE_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const CONTROL_CHARACTER_MESSAGE = 'Control characters are not allowed here.';

export const hasControlCharacters = (value: string, multiLine = false): boolean =>
  (multiLine ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);

/** The check every accepted single-line text carries: `z.string().check(plainText(), …)`. */
export const plainText = (options: { multiLine?: boolean } = {}) =>
  z.refine<string>((value) => !hasControlCharacters(value, options.multiLine), { error: CONTROL_CHARACTER_MESSAGE });

/** A text field of a write body: plain text (see above) and at most `max` characters. */
export const PlainText = (max: number, options: { multiLine?: boolean; min?: number } = {}) =>
  z.string().check(plainText(options), ...(options.min ? [z.minLength(options.min)] : []), z.maxLength(max));

/**
 * A real calendar date `YYYY-MM-DD` between the years 1900 and 2999: `0000-00-00`, `2026-02-30`
 * and the like are refused here rather than by the database.
 */
export const isCalendarDate = (value: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1900 || year > 2999) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};
