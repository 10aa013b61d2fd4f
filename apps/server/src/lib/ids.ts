import { randomBytes } from 'node:crypto';

/** 16 random bytes as 22 base64url characters: 128 bits (docs/product.md §3 asks for at least 122). */
export function newEntryId(): string {
  return randomBytes(16).toString('base64url');
}

/** A venue id: 24 lowercase hex characters. */
export function newVenueId(): string {
  return randomBytes(12).toString('hex');
}
