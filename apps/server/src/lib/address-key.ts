import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';

/**
 * The key an entry keeps of the address that joined it (docs/decisions/026): an HMAC-SHA256 of the
 * venue and the address, with a secret only the store holds. The address itself is never stored,
 * and without the secret a key cannot be turned back into one (an unkeyed hash of an IPv4 address
 * could, by trying all 2^32). The venue is part of the key, so keys of two venues cannot be linked.
 */
export function joinAddressKey(secret: string, venueId: string, address: string): string {
  const message = `${venueId}|${addressScope(address)}`;
  const cacheKey = `${secret}\u0000${message}`;
  let key = recentKeys.get(cacheKey);
  if (key === undefined) {
    key = createHmac('sha256', secret).update(message).digest('hex');
    if (recentKeys.size >= RECENT_KEYS) recentKeys.delete(recentKeys.keys().next().value as string);
    recentKeys.set(cacheKey, key);
  }
  return key;
}

/**
 * The last keys made: a phone on the street joins, reads and joins again from one address, and an
 * HMAC is a good part of a join's CPU otherwise (docs/decisions/042-cheaper-joins.md). Only in this
 * process's memory, which holds each request's address anyway.
 */
const recentKeys = new Map<string, string>();
const RECENT_KEYS = 1024;

/**
 * What counts as one client: an IPv4 address, or an IPv6 address's /64 (one home or phone gets a
 * whole /64 and may pick any address in it). An IPv4-mapped IPv6 address is its IPv4 address.
 * Anything that is not an address (never, from Fastify's `request.ip`) counts as itself.
 */
export function addressScope(address: string): string {
  // The common case, as Node writes `request.ip`: already its own scope, without parsing it.
  if (DOTTED_IPV4.test(address)) return address;
  const bare = address.split('%')[0]!;
  if (!ipaddr.isValid(bare)) return address;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${parsed.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/** An IPv4 address in plain dotted decimal (no leading zeros): what `ipaddr.process(...).toString()` gives back unchanged. */
const DOTTED_IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
