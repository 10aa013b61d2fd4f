import { ErrorCode, HOST_SESSION_COOKIE } from '@vez/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../lib/app-error.js';
import { readSessionToken } from '../../plugins/sessions.js';
import { type StaffIdentity, assertStaffOfVenue, findSession } from './staff.service.js';

/** The staff member of the request's session cookie, or 401. */
export async function requireStaff(db: Db, request: FastifyRequest, now = Date.now()): Promise<StaffIdentity> {
  const identity = await findSession(db.kysely, readSessionToken(request, 'staff'), now);
  if (!identity) throw new AppError(ErrorCode.UNAUTHENTICATED);
  return identity;
}

/** 401 without a session, 400 for a malformed venue id, 403 for another venue's staff. */
export async function requireVenueStaff(db: Db, request: FastifyRequest, venueId: string, now = Date.now()): Promise<StaffIdentity> {
  const identity = await requireStaff(db, request, now);
  await assertStaffOfVenue(db.kysely, identity, venueId);
  return identity;
}

/**
 * A preValidation hook for routes under /host/venues/:venueId: staff of that venue, checked before
 * the request is parsed, so a stranger learns nothing about what a valid request looks like.
 */
export function staffOfPathVenue(db: Db, now: () => number): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    await requireVenueStaff(db, request, (request.params as { venueId?: string }).venueId ?? '', now());
  };
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
