import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase64url } from './random-pool.js';

const hashOf = (proof: string) => createHash('sha256').update(proof).digest('hex');

/**
 * The proof a joining browser gets once (docs/product.md §3): 32 random bytes, base64url. Only its
 * SHA-256 is stored; 256 random bits need no slow hash.
 */
export function newJoinProof(): { proof: string; hash: string } {
  const proof = randomBase64url(32);
  return { proof, hash: hashOf(proof) };
}

/** Whether `proof` is the one whose hash was stored with the entry (constant time). */
export function isJoinProofOf(proof: string | undefined, storedHash: string | null): boolean {
  if (!proof || !storedHash) return false;
  const actual = Buffer.from(hashOf(proof), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
