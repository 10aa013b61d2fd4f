import { isEntryId } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { ENTRY_SLOT_BITS, newQueueEntryId } from './ids.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** An id's 132 bits, most significant first. */
const bitsOf = (id: string): number[] =>
  [...id].flatMap((c) => {
    const v = BASE64URL.indexOf(c);
    return [5, 4, 3, 2, 1, 0].map((k) => (v >> k) & 1);
  });

const slotOf = (id: string): number =>
  bitsOf(id)
    .slice(0, ENTRY_SLOT_BITS)
    .reduce((a, b) => 2 * a + b, 0);

/** docs/product.md §3.1: entry ids are URL-safe and carry at least 122 random bits; the rest is the second they were made. */
describe('queue entry ids', () => {
  it('are entry ids whose first 10 bits are the second they were made, modulo 1024', () => {
    const start = Date.UTC(2026, 10, 27, 20, 0, 0);
    for (let s = 0; s < 3 * 1024; s += 7) {
      const now = start + s * 1000 + (s % 1000);
      const id = newQueueEntryId(now);
      expect(isEntryId(id)).toBe(true);
      expect(slotOf(id)).toBe(Math.floor(now / 1000) % 1024);
    }
  });

  it('made in the same second, they share their first characters and sort together', () => {
    const now = Date.UTC(2026, 10, 27, 20, 0, 0) + 512_000;
    const ids = Array.from({ length: 200 }, () => newQueueEntryId(now + Math.floor(Math.random() * 1000)));
    const prefixes = new Set(ids.map((id) => `${id[0]!}${BASE64URL.indexOf(id[1]!) >> 2}`));
    expect(prefixes.size).toBe(1);
    const later = newQueueEntryId(now + 1000);
    expect(slotOf(later)).toBe(slotOf(ids[0]!) + 1);
  });

  it('carry 122 random bits: each of them takes both values, about evenly, and no two ids are equal', () => {
    const now = Date.UTC(2026, 10, 27, 21, 30, 0);
    const n = 4000;
    const ones = new Array<number>(132).fill(0);
    const seen = new Set<string>();
    for (let k = 0; k < n; k++) {
      const id = newQueueEntryId(now);
      seen.add(id);
      bitsOf(id).forEach((b, i) => (ones[i]! += b));
    }
    expect(seen.size).toBe(n);
    const random = ones.slice(ENTRY_SLOT_BITS).map((c) => c / n);
    expect(random).toHaveLength(122);
    // 4,000 fair bits: a share outside 0.4-0.6 is ten standard deviations away.
    for (const share of random) {
      expect(share).toBeGreaterThan(0.4);
      expect(share).toBeLessThan(0.6);
    }
  });
});
