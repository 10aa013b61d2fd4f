import { isVenueId } from '@vez/contract';
import type { FastifyRequest } from 'fastify';

/**
 * Logs carry no entry id, share id or login token (docs/product.md §3): an entry's id is the key of its
 * link, a share id reads it, a passport logs someone in. Request URLs are masked before pino
 * writes them; venue ids stay (they are public, printed on posters).
 */
const MASK = ':masked';
/** A path segment right after one of these is an entry or share id, whatever its length. */
const ID_PARENTS = new Set(['waitlist', 'waitlists', 'entries']);
/** Query parameters whose values are secrets or ids, whatever their length. */
const SECRET_PARAMS = new Set(['passport', 'token', 'code', 'joinproof', 'proof', 'shareid', 'id', 'waitlistid', 'entryid']);
/** Anything id-like: 20 or more URL-safe characters (entry ids are 22, passports longer). */
const ID_LIKE = /^[A-Za-z0-9_%-]{20,}$/;

function maskSegment(segment: string, previous: string | undefined): string {
  if (segment === '' || isVenueId(segment)) return segment;
  if (ID_LIKE.test(segment) || (previous !== undefined && ID_PARENTS.has(previous.toLowerCase()))) return MASK;
  return segment;
}

function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return ID_LIKE.test(pair) ? MASK : pair;
      const key = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      return SECRET_PARAMS.has(key.toLowerCase()) || ID_LIKE.test(value) ? `${key}=${MASK}` : pair;
    })
    .join('&');
}

/** The URL with every entry id, share id and token replaced by `:masked`. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const segments = path.split('/');
  const masked = segments.map((segment, i) => maskSegment(segment, i > 0 ? segments[i - 1] : undefined)).join('/');
  return q < 0 ? masked : `${masked}?${maskQuery(url.slice(q + 1))}`;
}

/** Fastify's own request fields, with the URL masked (pino `serializers.req`). */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: maskUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
