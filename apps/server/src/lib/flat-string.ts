/**
 * The same text as one flat string. V8 keeps `a + b` as a rope (a cons string pointing at both
 * parts) until something reads it whole, and a string built piece by piece is a tree of them. A
 * string kept for hours (a stream's head, a template's frame) is cheaper flat: one object for the
 * garbage collector to mark instead of dozens (docs/decisions/057-fewer-objects-for-the-collector.md).
 * Decoding a fresh buffer always gives a flat string; a JS string round-trips through UTF-8 unchanged
 * (lone surrogates aside, which no head, JSON or template here holds).
 */
export function flatString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
