import net from 'node:net';

/**
 * Which peers may tell us the client's address through X-Forwarded-For (docs/security.md).
 * `false`: nobody, the socket's address is the client. A number: that many proxies in front; only
 * the entries they appended count, whatever the client sent before them. A list: the proxies'
 * addresses or CIDRs (or proxy-addr's names loopback, linklocal, uniquelocal).
 */
export type TrustProxy = false | number | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(value: string): boolean {
  if (NAMED.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY; answers the setting, or the reason it is refused. `true` is refused: it would
 * take the leftmost X-Forwarded-For entry, which any client writes itself, as its address, and so
 * let every client pick its own rate-limit key.
 */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { error: string } {
  const text = raw.trim().toLowerCase();
  if (text === 'false' || text === '0') return { value: false };
  if (text === 'true') {
    return {
      error:
        'true would trust any client’s own X-Forwarded-For; give the number of proxies in front (for example 1) or their addresses (for example 10.0.0.0/8)',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? { value: hops } : { error: 'a hop count is 0 to 10' };
  }
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((item) => !isAddressOrCidr(item));
  if (list.length === 0 || bad.length > 0) {
    return {
      error: `must be false, a hop count (for example 1) or a comma-separated list of proxy addresses or CIDRs; not ${bad.join(', ') || 'empty'}`,
    };
  }
  return { value: list };
}

/**
 * Fastify's `trustProxy` for the setting. A hop count becomes proxy-addr's hop function (the socket's
 * peer and the next hops-1 entries are proxies; the entry before them is the client): Fastify's own
 * number option trusts nothing. A hop count assumes the server is reachable only through its proxies
 * (listen on loopback or a private network); a list checks each proxy's address instead.
 */
export function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return value === 0 ? false : (_address, hop) => hop < value;
  return value;
}
