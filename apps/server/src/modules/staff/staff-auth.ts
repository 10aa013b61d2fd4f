import { ErrorCode, HOST_SESSION_COOKIE } from '@vez/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../lib/app-error.js';
import { type StaffIdentity, assertStaffOfVenue, findSession } from './staff.service.js';

/** The staff member of the request's session cookie, or 401. */
export async function requireStaff(db: Db, request: FastifyRequest, now = Date.now()): Promise<StaffIdentity> {
  const identity = await findSession(db.kysely, request.cookies[HOST_SESSION_COOKIE], now);
  if (!identity) throw new AppError(ErrorCode.UNAUTHENTICATED);
  return identity;
}

/** 401 without a session, 400 for a malformed venue id, 403 for another venue's staff. */
export async function requireVenueStaff(db: Db, request: FastifyRequest, venueId: string, now = Date.now()): Promise<StaffIdentity> {
  const identity = await requireStaff(db, request, now);
  await assertStaffOfVenue(db.kysely, identity, venueId);
  return identity;
}

export function setSessionCookie(reply: FastifyReply, config: Config, token: string, expiresAt: number): void {
  reply.setCookie(HOST_SESSION_COOKIE, token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicBaseUrl.startsWith('https:'),
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(HOST_SESSION_COOKIE, {
    path: '/api',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicBaseUrl.startsWith('https:'),
  });
}

/**
 * Cross-site request guard for cookie-authenticated writes (docs/decisions/007-staff-accounts-and-sessions.md).
 * SameSite=Lax already keeps the cookie off cross-site POSTs in current browsers; this is the
 * second wall for older browsers and same-site subdomains. A browser always sends Sec-Fetch-Site
 * (current ones) or Origin (every one, on a POST/PUT/PATCH/DELETE); a write is refused unless it
 * says same-origin or names an allowed origin. A client sending neither is not a browser, so it
 * cannot be carrying a victim's cookie by accident (a point-of-sale integration, curl).
 */
export function assertSameOrigin(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): void {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (typeof fetchSite === 'string' && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    if (!(typeof origin === 'string' && allowedOrigins.has(origin))) {
      throw new AppError(ErrorCode.FORBIDDEN, 'Cross-site request refused.');
    }
    return;
  }
  if (typeof fetchSite !== 'string' && typeof origin === 'string' && !allowedOrigins.has(origin)) {
    throw new AppError(ErrorCode.FORBIDDEN, 'Cross-site request refused.');
  }
}

/** The app's own origin plus CORS_ORIGINS: the origins allowed to write with a staff cookie. */
export function allowedOriginsOf(config: Config): Set<string> {
  const origins = new Set<string>([new URL(config.publicBaseUrl).origin]);
  for (const o of config.CORS_ORIGINS ?? []) {
    try {
      origins.add(new URL(o).origin);
    } catch {
      // Not a URL: config validation of CORS_ORIGINS is someone else's; ignore it here.
    }
  }
  return origins;
}
