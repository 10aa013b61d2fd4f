import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * 22 characters that sort by creation: time (base 36), a per-process counter, then randomness.
 * The dev outbox lists newest first even when several messages share a millisecond.
 */
export function newMessageId(now: number): string {
  counter = (counter + 1) % 36 ** 4;
  const time = now.toString(36).padStart(9, '0').slice(-9);
  return `${time}${counter.toString(36).padStart(4, '0')}${randomBytes(7).toString('base64url').slice(0, 9)}`;
}
