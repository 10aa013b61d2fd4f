import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { CODE_LENGTH } from '@vez/contract';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;
const SCRYPT = { N: 2 ** 14, r: 8, p: 1 };

/** A session or passport token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored as their SHA-256: they carry 256 bits, so a fast hash is enough. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A uniformly random code of CODE_LENGTH digits. */
export function newCode(): string {
  return String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

/**
 * A 6-digit code has only a million values, so a fast hash would give it away from a leaked row.
 * scrypt with a per-code salt makes trying them all cost far longer than the code's 10 minutes.
 */
export async function hashCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(code, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function isCodeMatch(code: string, stored: string): Promise<boolean> {
  const [kind, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scryptAsync(code, Buffer.from(salt, 'base64url'), expected.length, SCRYPT);
  return timingSafeEqual(actual, expected);
}

/**
 * The per-address send limit counts by this; the address itself is never stored. Keyed (HMAC with a
 * secret the store keeps, docs/decisions/026): an unkeyed hash of an IPv4 address is undone by
 * trying all 2^32 of them.
 */
export function clientKeyOf(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`vez-client:${address}`).digest('hex');
}
