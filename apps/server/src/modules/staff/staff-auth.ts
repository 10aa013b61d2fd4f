import { ErrorCode, HOST_SESSION_COOKIE, type StaffRole, isVenueId } from '@vez/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../lib/app-error.js';
import { readSessionToken } from '../../plugins/sessions.js';
import type { SessionAccess, SessionWatch } from './session-watch.js';
import { findStaffRole } from './staff-venues.repository.js';
import { NOT_STAFF_OF_VENUE, type StaffSession, assertStaffOfVenue, findSession, findSessionAt } from './staff.service.js';

/** The staff member of the request's session cookie, or 401. */
export async function requireStaff(db: Db, request: FastifyRequest, now = Date.now()): Promise<StaffSession> {
  const identity = await findSession(db.kysely, readSessionToken(request, 'staff'), now);
  if (!identity) throw new AppError(ErrorCode.UNAUTHENTICATED);
  return identity;
}

export type VenueStaff = StaffSession & { role: StaffRole };

/** Who the venue hooks below let through, for the handler that follows (one session lookup per request). */
const verified = new WeakMap<FastifyRequest, VenueStaff>();

/** 401 without a session, 400 for a malformed venue id, 403 for another venue's staff. */
export async function requireVenueStaff(db: Db, request: FastifyRequest, venueId: string, now = Date.now()): Promise<VenueStaff> {
  let staff: VenueStaff;
  if (isVenueId(venueId)) {
    // The session and the role at the venue in one read: a console's every request asks both.
    const found = await findSessionAt(db.kysely, readSessionToken(request, 'staff'), venueId, now);
    if (!found) throw new AppError(ErrorCode.UNAUTHENTICATED);
    if (!found.role) throw new AppError(ErrorCode.FORBIDDEN, NOT_STAFF_OF_VENUE);
    staff = { ...found, role: found.role };
  } else {
    // 401 before 400: without a session, the venue id is nobody's business.
    const identity = await requireStaff(db, request, now);
    staff = { ...identity, role: await assertStaffOfVenue(db.kysely, identity, venueId) };
  }
  verified.set(request, staff);
  return staff;
}

/**
 * As requireVenueStaff, then 403 OWNER_ONLY for a host: settings, branding, images, message texts
 * and the team are the owners' (docs/product.md §9, docs/decisions/023-staff-roles.md).
 */
export async function requireVenueOwner(db: Db, request: FastifyRequest, venueId: string, now = Date.now()): Promise<VenueStaff> {
  const staff = await requireVenueStaff(db, request, venueId, now);
  if (staff.role !== 'owner') throw new AppError(ErrorCode.OWNER_ONLY);
  return staff;
}

/** The staff member a venue hook of this request let through; 401 if none ran (a wiring mistake, never a pass). */
export function verifiedStaff(request: FastifyRequest): VenueStaff {
  const staff = verified.get(request);
  if (!staff) throw new AppError(ErrorCode.UNAUTHENTICATED);
  return staff;
}

/**
 * Whether the request carries a live staff session of this venue (any role), without refusing: the
 * venue's own kiosk, a browser its staff logged in, joins without the bound per client address
 * (docs/decisions/026).
 */
export async function isVenueStaffRequest(db: Db, request: FastifyRequest, venueId: string, now: number): Promise<boolean> {
  const identity = await findSession(db.kysely, readSessionToken(request, 'staff'), now);
  if (!identity) return false;
  return (await findStaffRole(db.kysely, identity.staffId, venueId)) !== undefined;
}

const pathVenue = (request: FastifyRequest): string => (request.params as { venueId?: string }).venueId ?? '';

/**
 * A preValidation hook for routes under /host/venues/:venueId: staff of that venue, checked before
 * the request is parsed, so a stranger learns nothing about what a valid request looks like.
 */
export function staffOfPathVenue(db: Db, now: () => number): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    await requireVenueStaff(db, request, pathVenue(request), now());
  };
}

/** The same hook for what only the venue's owners may do (403 OWNER_ONLY for its hosts). */
export function ownerOfPathVenue(db: Db, now: () => number): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    await requireVenueOwner(db, request, pathVenue(request), now());
  };
}

/**
 * The guard of a venue's console stream: staff of the path venue, as the hook above, then watched
 * for as long as the stream lives (docs/security.md, "Staff sessions end everywhere"): news that
 * ends the session or changes the role there, or the session's expiry, ends the stream.
 */
export function streamAccessOfPathVenue(
  db: Db,
  watch: SessionWatch,
  now: () => number,
): (request: FastifyRequest) => Promise<SessionAccess> {
  return async (request) => {
    const since = watch.mark();
    const venueId = pathVenue(request);
    const staff = await requireVenueStaff(db, request, venueId, now());
    return watch.watch(since, {
      sessionId: staff.sessionId,
      staffId: staff.staffId,
      venueId,
      role: staff.role,
      expiresAt: staff.expiresAt,
    });
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
