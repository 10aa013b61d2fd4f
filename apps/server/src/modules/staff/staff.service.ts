import { createHash, randomBytes } from 'node:crypto';
import {
  type ChangePasswordBody,
  ErrorCode,
  type HostLoginBody,
  type HostMeResponse,
  NewStaffPassword,
  type StaffRole,
  type VenueName,
  isVenueId,
} from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import type { StaffNews } from '../../plugins/bus.js';
import { AppError } from '../../lib/app-error.js';
import { newVenueId } from '../../lib/ids.js';
import { findVenueById } from '../venues/venues.service.js';
import type { LoginLimiter } from './login-limiter.js';
import { dummyHash, hashPassword, verifyPassword } from './password.js';
import * as repo from './staff.repository.js';
import { addStaffVenue, findStaffRole, listStaffVenues } from './staff-venues.repository.js';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfStaff,
  findLiveSession,
  findLiveSessionAt,
  insertSession,
} from './staff-sessions.repository.js';

type Db = Kysely<Database>;

/** A staff session lasts one long shift. */
export const SESSION_TTL_MS = 12 * 3_600_000;

export interface StaffIdentity {
  staffId: string;
  email: string;
}

/** A live session: who, its id (the SHA-256 of its token, as stored) and when it expires. */
export type StaffSession = StaffIdentity & { sessionId: string; expiresAt: number };

/**
 * Where a change that ends sessions or changes a role tells every instance, after it committed
 * (the bus's staff news: docs/security.md, "Staff sessions end everywhere").
 */
export type TellStaffNews = (news: StaffNews) => void;

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The one rule of a new staff password (the contract's): 422 naming `field` otherwise. */
export function checkNewPassword(password: string, field: string): void {
  const result = NewStaffPassword.safeParse(password);
  if (!result.success) throw new AppError(ErrorCode.VALIDATION_FAILED, result.error.issues[0]?.message, field);
}

/** Creates a staff account bound to venues with one role; refuses a taken email or an unknown venue. */
export async function createStaff(
  db: Db,
  input: { email: string; password: string; venueIds: string[]; role?: StaffRole },
  now = Date.now(),
): Promise<string> {
  const email = normaliseEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError(ErrorCode.VALIDATION_FAILED, 'Invalid email', 'email');
  checkNewPassword(input.password, 'password');
  if (await repo.findStaffByEmail(db, email))
    throw new AppError(ErrorCode.VALIDATION_FAILED, 'This email already has an account.', 'email');
  const id = newVenueId();
  const passwordHash = await hashPassword(input.password);
  await inTransaction(db, async (trx) => {
    await repo.insertStaff(trx, { id, email, password_hash: passwordHash, created_at: now });
    for (const venueId of input.venueIds) await bindVenue(trx, id, venueId, input.role ?? 'owner');
  });
  return id;
}

async function bindVenue(db: Db, staffId: string, venueId: string, role: StaffRole): Promise<void> {
  if (!isVenueId(venueId)) throw new AppError(ErrorCode.INVALID_VENUEID_FORMAT);
  if (!(await findVenueById(db, venueId))) throw new AppError(ErrorCode.VENUE_INFO_NOT_FOUND, `No venue ${venueId}.`);
  await addStaffVenue(db, staffId, venueId, role);
}

/** The operator's command: binds an account to one more venue, as its owner unless told otherwise. */
export async function addStaffVenueByEmail(db: Db, email: string, venueId: string, role: StaffRole = 'owner'): Promise<void> {
  const staff = await requireStaffByEmail(db, email);
  await bindVenue(db, staff.id, venueId, role);
}

async function requireStaffByEmail(db: Db, email: string) {
  const staff = await repo.findStaffByEmail(db, normaliseEmail(email));
  if (!staff) throw new AppError(ErrorCode.NOT_FOUND, `No staff account ${normaliseEmail(email)}.`);
  return staff;
}

/** Ends every session of a staff member at once (docs/product.md §9); answers how many were open. */
export async function endStaffSessions(db: Db, email: string, tell: TellStaffNews): Promise<number> {
  const staff = await requireStaffByEmail(db, email);
  const ended = await deleteSessionsOfStaff(db, staff.id);
  tell({ kind: 'sessions-ended', staffId: staff.id });
  return ended;
}

/** Removes a staff account: its sessions end and it runs no venue any more (docs/product.md §9). */
export async function removeStaff(db: Db, email: string, tell: TellStaffNews): Promise<void> {
  const staff = await requireStaffByEmail(db, email);
  await inTransaction(db, (trx) => repo.deleteStaff(trx, staff.id));
  tell({ kind: 'sessions-ended', staffId: staff.id });
}

/** Sets a new password and ends every session opened with the old one. */
export async function setStaffPassword(db: Db, email: string, password: string, tell: TellStaffNews): Promise<void> {
  const staff = await requireStaffByEmail(db, email);
  checkNewPassword(password, 'password');
  const passwordHash = await hashPassword(password);
  await inTransaction(db, async (trx) => {
    await repo.updateStaffPassword(trx, staff.id, passwordHash);
    await deleteSessionsOfStaff(trx, staff.id);
  });
  tell({ kind: 'sessions-ended', staffId: staff.id });
}

/**
 * Checks the credentials and opens a session; returns the raw token for the cookie. A pair of
 * account and address that must wait answers 429 with Retry-After first, then a wrong email or
 * password answers the same 401 and makes that pair's next wait longer.
 */
export async function login(
  db: Db,
  limiter: LoginLimiter,
  body: HostLoginBody,
  address: string,
  now = Date.now(),
): Promise<{ token: string; identity: StaffIdentity; expiresAt: number }> {
  const email = normaliseEmail(body.email);
  const wait = limiter.check(email, address);
  if (wait > 0) {
    throw new AppError(ErrorCode.RATE_LIMITED, `Too many login attempts. Retry in ${wait} s.`, undefined, { 'retry-after': String(wait) });
  }
  const staff = await repo.findStaffByEmail(db, email);
  const ok = await verifyPassword(body.password, staff?.password_hash ?? (await dummyHash()));
  if (!staff || !ok) {
    limiter.fail(email, address);
    throw new AppError(ErrorCode.UNAUTHENTICATED, 'Email or password is incorrect.');
  }
  limiter.succeed(email, address);
  return openSession(db, { staffId: staff.id, email: staff.email }, now);
}

/** A new session for a staff member whose password was just proven; the raw token is for the cookie. */
export async function openSession(
  db: Db,
  identity: StaffIdentity,
  now: number,
): Promise<{ token: string; identity: StaffIdentity; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + SESSION_TTL_MS;
  await deleteExpiredSessions(db, now);
  await insertSession(db, { token_hash: hashToken(token), staff_id: identity.staffId, created_at: now, expires_at: expiresAt });
  return { token, identity, expiresAt };
}

/**
 * Proves a password that is already set (the current one, an existing account's), throttled like a
 * login: a stolen session cannot guess the password behind it at full speed. 403 WRONG_PASSWORD
 * naming `field` when it is wrong.
 */
export async function provePassword(
  limiter: LoginLimiter,
  staff: { email: string; password_hash: string },
  password: string,
  address: string,
  field: string,
): Promise<void> {
  const wait = limiter.check(staff.email, address);
  if (wait > 0) {
    throw new AppError(ErrorCode.RATE_LIMITED, `Too many attempts. Retry in ${wait} s.`, undefined, { 'retry-after': String(wait) });
  }
  if (!(await verifyPassword(password, staff.password_hash))) {
    limiter.fail(staff.email, address);
    throw new AppError(ErrorCode.WRONG_PASSWORD, undefined, field);
  }
  limiter.succeed(staff.email, address);
}

/**
 * Everyone changes their own password (docs/product.md §9): the current one first, then every other
 * session of the account ends; the one asking stays signed in.
 */
export async function changeOwnPassword(
  db: Db,
  limiter: LoginLimiter,
  identity: StaffIdentity,
  sessionToken: string,
  body: ChangePasswordBody,
  address: string,
  tell: TellStaffNews,
): Promise<{ ended: number }> {
  const staff = await repo.findStaffById(db, identity.staffId);
  if (!staff) throw new AppError(ErrorCode.UNAUTHENTICATED);
  await provePassword(limiter, staff, body.currentPassword, address, 'currentPassword');
  const passwordHash = await hashPassword(body.newPassword);
  const keep = hashToken(sessionToken);
  const ended = await inTransaction(db, async (trx) => {
    await repo.updateStaffPassword(trx, staff.id, passwordHash);
    return deleteSessionsOfStaff(trx, staff.id, keep);
  });
  tell({ kind: 'sessions-ended', staffId: staff.id, keep });
  return { ended };
}

/** The stored id of a session cookie's token; undefined for none or one no session could have. */
const sessionIdOf = (token: string | undefined): string | undefined => (token && token.length <= 100 ? hashToken(token) : undefined);

export async function findSession(db: Db, token: string | undefined, now = Date.now()): Promise<StaffSession | undefined> {
  const sessionId = sessionIdOf(token);
  if (!sessionId) return undefined;
  const row = await findLiveSession(db, sessionId, now);
  return row ? { staffId: row.staffId, email: row.email, sessionId, expiresAt: row.expiresAt } : undefined;
}

/** The 403 of a staff member asking about a venue that is not theirs. */
export const NOT_STAFF_OF_VENUE = 'You are not staff of this venue.';

/**
 * The session of this token, with its staff member's role at the venue (null: not its staff), in
 * one read: what a console's request asks (staff-auth.ts requireVenueStaff).
 */
export async function findSessionAt(
  db: Db,
  token: string | undefined,
  venueId: string,
  now = Date.now(),
): Promise<(StaffSession & { role: StaffRole | null }) | undefined> {
  const sessionId = sessionIdOf(token);
  if (!sessionId) return undefined;
  const row = await findLiveSessionAt(db, sessionId, now, venueId);
  return row ? { staffId: row.staffId, email: row.email, sessionId, expiresAt: row.expiresAt, role: row.role } : undefined;
}

/** Ends this session, here and in the console streams it opened on every instance. */
export async function logout(db: Db, session: StaffSession, tell: TellStaffNews): Promise<void> {
  await deleteSession(db, session.sessionId);
  tell({ kind: 'session-ended', staffId: session.staffId, sessionId: session.sessionId });
}

export async function getMe(db: Db, identity: StaffIdentity): Promise<HostMeResponse> {
  const venues = await listStaffVenues(db, identity.staffId);
  return {
    staff: { _id: identity.staffId, email: identity.email },
    venues: venues.map((v) => {
      const name: VenueName = { pt: v.name_pt };
      if (v.name_en) name.en = v.name_en;
      if (v.name_fr) name.fr = v.name_fr;
      if (v.name_es) name.es = v.name_es;
      return { _id: v.id, slug: v.slug, name, role: v.role };
    }),
  };
}

/**
 * 403 unless the staff member runs this venue (docs/product.md §3); an unknown venue answers the
 * same. Answers their role there (docs/decisions/023-staff-roles.md).
 */
export async function assertStaffOfVenue(db: Db, identity: StaffIdentity, venueId: string): Promise<StaffRole> {
  if (!isVenueId(venueId)) throw new AppError(ErrorCode.INVALID_VENUEID_FORMAT);
  const role = await findStaffRole(db, identity.staffId, venueId);
  if (!role) throw new AppError(ErrorCode.FORBIDDEN, NOT_STAFF_OF_VENUE);
  return role;
}
