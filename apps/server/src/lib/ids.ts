import { randomBytes } from 'node:crypto';
import { randomBase64url } from './random-pool.js';

/** 16 random bytes as 22 base64url characters: 128 bits (docs/product.md §3 asks for at least 122). */
export function newEntryId(): string {
  return randomBase64url(16);
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
