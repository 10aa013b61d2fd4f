import { ErrorCode } from '@vez/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../lib/app-error.js';

/**
 * The cross-site guard of every cookie-authenticated write: the host console's routes (login
 * included: login CSRF), the diner's identity writes and image uploads
 * (docs/decisions/019-validation-guards-sessions-limits.md).
 *
 * SameSite=Lax already keeps the cookies off cross-site POSTs in current browsers; this is the
 * second wall for older browsers and same-site subdomains. A browser always sends Sec-Fetch-Site
 * (current ones) or Origin (every one, on a POST/PUT/PATCH/DELETE): a write is refused unless it
 * says same-origin or names an allowed origin. A client sending neither is not a browser, so it
 * cannot be carrying a victim's cookie by accident (a point-of-sale integration, curl).
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The app's own origin plus CORS_ORIGINS, each as a URL origin: the origins allowed to write. */
export function allowedOriginsOf(config: Config): ReadonlySet<string> {
  const origins = new Set<string>([new URL(config.publicBaseUrl).origin]);
  for (const entry of config.CORS_ORIGINS ?? []) {
    try {
      origins.add(new URL(entry).origin);
    } catch {
      // Not a URL: it can match no browser's Origin header, so it allows nothing.
    }
  }
  return origins;
}

/** Whether a request comes from another site (its own headers say so, or name a foreign origin). */
export function isCrossSite(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const isAllowedOrigin = typeof origin === 'string' && allowedOrigins.has(origin);
  if (typeof fetchSite === 'string') return fetchSite !== 'same-origin' && fetchSite !== 'none' && !isAllowedOrigin;
  return typeof origin === 'string' && !isAllowedOrigin;
}

export interface CrossSiteOptions {
  /** The refusal's text (a module may answer in the diner's language); English otherwise. */
  message?: (request: FastifyRequest) => string;
}

/**
 * Refuses cross-site writes (403) in the calling plugin's scope, on request: before the body is
 * read, parsed or counted against a rate limit.
 */
export function refuseCrossSiteWrites(app: FastifyInstance, options: CrossSiteOptions = {}): void {
  const allowedOrigins = allowedOriginsOf(app.config);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !isCrossSite(request, allowedOrigins)) return;
    throw new AppError(ErrorCode.FORBIDDEN, options.message?.(request) ?? 'Cross-site request refused.');
  });
}
