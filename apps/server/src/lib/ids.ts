import { randomBytes } from 'node:crypto';
import { randomBase64url } from './random-pool.js';

/** 16 random bytes as 22 base64url characters: 128 bits (docs/product.md §3 asks for at least 122). */
export function newEntryId(): string {
  return randomBase64url(16);
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A queue entry id's time slot: its second of creation, of a cycle of 2^10 seconds (about 17 minutes). */
export const ENTRY_SLOT_BITS = 10;

/**
 * A queue entry's id (and its share id): 22 base64url characters as `newEntryId`'s, whose first 10
 * of 132 bits are the second it was made, modulo 1024, and the other 122 random (docs/product.md
 * §3.1 asks for 122). Entries made in the same second sit side by side in every index keyed by
 * the id (the entries' two unique ids, each message's `join:<id>`), so the joins of one commit
 * write a few pages of those indexes instead of one page each
 * (docs/decisions/064-join-counts-and-entry-ids.md).
 */
export function newQueueEntryId(now: number): string {
  const slot = Math.floor(now / 1000) & ((1 << ENTRY_SLOT_BITS) - 1);
  // 22 characters: 21 of 6 random bits, then one of 2. The slot takes the first character and 4
  // bits of the second; the second keeps 2 random bits; then 20 random characters: 2 + 120 bits.
  const random = randomBase64url(16);
  const kept = BASE64URL.indexOf(random[0]!) & 3;
  return `${BASE64URL[slot >> 4]!}${BASE64URL[((slot & 15) << 2) | kept]!}${random.slice(1, 21)}`;
}

/** A venue id: 24 lowercase hex characters. */
export function newVenueId(): string {
  return randomBytes(12).toString('hex');
}

let counter = 0;

/**
 * 22 characters that sort by creation: time (base 36), a per-process counter, then randomness.
 * Lists by id come out in the order things happened, even when several share a millisecond
 * (the dev outbox, an entry's thread).
 */
export function newOrderedId(now: number): string {
  counter = (counter + 1) % 36 ** 4;
  const time = now.toString(36).padStart(9, '0').slice(-9);
  return `${time}${counter.toString(36).padStart(4, '0')}${randomBase64url(7).slice(0, 9)}`;
}
