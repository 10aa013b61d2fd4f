import { createHmac } from 'node:crypto';
import net from 'node:net';

/**
 * The key an entry keeps of the address that joined it (docs/decisions/026): an HMAC-SHA256 of the
 * venue and the address, with a secret only the store holds. The address itself is never stored,
 * and without the secret a key cannot be turned back into one (an unkeyed hash of an IPv4 address
 * could, by trying all 2^32). The venue is part of the key, so keys of two venues cannot be linked.
 */
export function joinAddressKey(secret: string, venueId: string, address: string): string {
  return createHmac('sha256', secret)
    .update(`${venueId}|${addressScope(address)}`)
    .digest('hex');
}

/**
 * What counts as one client: an IPv4 address, or an IPv6 address's /64 (one home or phone gets a
 * whole /64 and may pick any address in it). An IPv4-mapped IPv6 address is its IPv4 address.
 */
export function addressScope(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return address;
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4 and the like) is two groups.
  const last = right.length ? right : left;
  const v4 = last.length && net.isIPv4(last[last.length - 1]!) ? last.pop()!.split('.').map(Number) : undefined;
  if (v4) last.push(((v4[0]! << 8) | v4[1]!).toString(16), ((v4[2]! << 8) | v4[3]!).toString(16));
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16).toString(16));
}
