import { randomFillSync } from 'node:crypto';

/**
 * Random bytes from the system's CSPRNG, drawn a few kilobytes at a time: a join takes four small
 * draws (two entry ids, its join proof, its message's id), and each `randomBytes` call costs far
 * more than its bytes (docs/decisions/042-cheaper-joins.md). Every byte is handed out once.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `n` fresh random bytes (at most 4096), as base64url, as `randomBytes(n).toString('base64url')` would give. */
export function randomBase64url(n: number): string {
  if (offset + n > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const text = pool.toString('base64url', offset, offset + n);
  offset += n;
  return text;
}
