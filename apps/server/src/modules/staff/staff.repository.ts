import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/connect.js';
import type { Database, StaffRow, StaffSessionRow, StaffVenueTable, VenueRow } from '../../db/types.js';

type Executor = Kysely<Database>;
export type StaffRoleValue = StaffVenueTable['role'];

export function findStaffByEmail(db: Executor, email: string): Promise<StaffRow | undefined> {
  return db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findStaffById(db: Executor, id: string): Promise<StaffRow | undefined> {
  return db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertStaff(db: Executor, row: StaffRow): Promise<void> {
  await db.insertInto('staff').values(row).execute();
}

export async function updateStaffPassword(db: Executor, staffId: string, passwordHash: string): Promise<void> {
  await db.updateTable('staff').set({ password_hash: passwordHash }).where('id', '=', staffId).execute();
}

/** Binds a staff member to a venue with a role; binding twice is harmless and keeps the first role. */
export async function addStaffVenue(db: Executor, staffId: string, venueId: string, role: StaffRoleValue): Promise<void> {
  await db
    .insertInto('staff_venues')
    .values({ staff_id: staffId, venue_id: venueId, role })
    .onConflict((oc) => oc.columns(['staff_id', 'venue_id']).doNothing())
    .execute();
}

export function listStaffVenues(
  db: Executor,
  staffId: string,
): Promise<(Pick<VenueRow, 'id' | 'slug' | 'name_pt' | 'name_en' | 'name_fr' | 'name_es'> & { role: StaffRoleValue })[]> {
  return db
    .selectFrom('staff_venues')
    .innerJoin('venues', 'venues.id', 'staff_venues.venue_id')
    .select(['venues.id', 'venues.slug', 'venues.name_pt', 'venues.name_en', 'venues.name_fr', 'venues.name_es', 'staff_venues.role'])
    .where('staff_venues.staff_id', '=', staffId)
    .orderBy('venues.name_pt')
    .execute();
}

/**
 * The staff member's role at the venue; undefined when they do not run it. With `lock` (PostgreSQL)
 * the row stays locked until the transaction ends, as `listVenueMembers` locks the team.
 */
export async function findStaffRole(db: Executor, staffId: string, venueId: string, lock?: Dialect): Promise<StaffRoleValue | undefined> {
  const query = db.selectFrom('staff_venues').select('role').where('staff_id', '=', staffId).where('venue_id', '=', venueId);
  const row = await (lock === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return row?.role;
}

/**
 * The venue's team, oldest account first. With `lock` (PostgreSQL) the rows stay locked until the
 * transaction ends, so two owners changing the team at once cannot both leave it without an owner.
 */
export function listVenueMembers(db: Executor, venueId: string, lock?: Dialect) {
  const query = db
    .selectFrom('staff_venues')
    .innerJoin('staff', 'staff.id', 'staff_venues.staff_id')
    .select(['staff.id', 'staff.email', 'staff_venues.role'])
    .where('staff_venues.venue_id', '=', venueId)
    .orderBy('staff.created_at')
    .orderBy('staff.id');
  return (lock === 'postgres' ? query.forUpdate() : query).execute();
}

export async function setStaffRole(db: Executor, staffId: string, venueId: string, role: StaffRoleValue): Promise<void> {
  await db.updateTable('staff_venues').set({ role }).where('staff_id', '=', staffId).where('venue_id', '=', venueId).execute();
}

export async function removeStaffVenue(db: Executor, staffId: string, venueId: string): Promise<void> {
  await db.deleteFrom('staff_venues').where('staff_id', '=', staffId).where('venue_id', '=', venueId).execute();
}

export async function insertSession(db: Executor, row: StaffSessionRow): Promise<void> {
  await db.insertInto('staff_sessions').values(row).execute();
}

/** The session and its staff member, if the session has not expired. */
export function findLiveSession(db: Executor, tokenHash: string, now: number) {
  return db
    .selectFrom('staff_sessions')
    .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
    .select(['staff.id as staffId', 'staff.email as email', 'staff_sessions.expires_at as expiresAt'])
    .where('staff_sessions.token_hash', '=', tokenHash)
    .where('staff_sessions.expires_at', '>', now)
    .executeTakeFirst();
}

/** Of these sessions, the live ones with each venue their staff member runs and the role there. */
export function listLiveSessionRoles(db: Executor, tokenHashes: string[], now: number) {
  return db
    .selectFrom('staff_sessions')
    .innerJoin('staff_venues', 'staff_venues.staff_id', 'staff_sessions.staff_id')
    .select(['staff_sessions.token_hash as sessionId', 'staff_venues.venue_id as venueId', 'staff_venues.role as role'])
    .where('staff_sessions.token_hash', 'in', tokenHashes)
    .where('staff_sessions.expires_at', '>', now)
    .execute();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of one staff member, but the one kept (its token hash); answers how many ended. */
export async function deleteSessionsOfStaff(db: Executor, staffId: string, keepTokenHash?: string): Promise<number> {
  let query = db.deleteFrom('staff_sessions').where('staff_id', '=', staffId);
  if (keepTokenHash) query = query.where('token_hash', '!=', keepTokenHash);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes a staff account with its venues and sessions (children first: no reliance on cascades). */
export async function deleteStaff(db: Executor, staffId: string): Promise<void> {
  await db.updateTable('staff_invites').set({ created_by: null }).where('created_by', '=', staffId).execute();
  await db.deleteFrom('staff_sessions').where('staff_id', '=', staffId).execute();
  await db.deleteFrom('staff_venues').where('staff_id', '=', staffId).execute();
  await db.deleteFrom('staff').where('id', '=', staffId).execute();
}

export async function deleteExpiredSessions(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('staff_sessions').where('expires_at', '<=', now).execute();
}
