import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database, StaffSessionRow, StaffVenueTable } from '../../db/types.js';

/**
 * The `staff_sessions` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3).
 * `findLiveSession` joins staff and `listLiveSessionRoles` joins staff_venues: both are about the
 * session, so they live here.
 */

type Executor = Kysely<Database>;

export async function insertSession(db: Executor, row: StaffSessionRow): Promise<void> {
  await db.insertInto('staff_sessions').values(row).execute();
}

/** The session and its staff member, if the session has not expired. */
const liveSession = compiledOnce<{ tokenHash: string; now: number }, { staffId: string; email: string; expiresAt: number }>((db, arg) =>
  db
    .selectFrom('staff_sessions')
    .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
    .select(['staff.id as staffId', 'staff.email as email', 'staff_sessions.expires_at as expiresAt'])
    .where('staff_sessions.token_hash', '=', arg('tokenHash'))
    .where('staff_sessions.expires_at', '>', arg('now'))
    .compile(),
);

export async function findLiveSession(db: Executor, tokenHash: string, now: number) {
  return (await liveSession(db, { tokenHash, now })).rows[0];
}

/**
 * The live session and its staff member, with their role at one venue (null: not its staff), in
 * one statement: a console's request asks both (docs/decisions/065-outbox-claimed-when-something-waits.md).
 */
const liveSessionAt = compiledOnce<
  { tokenHash: string; now: number; venueId: string },
  { staffId: string; email: string; expiresAt: number; role: StaffVenueTable['role'] | null }
>((db, arg) =>
  db
    .selectFrom('staff_sessions')
    .innerJoin('staff', 'staff.id', 'staff_sessions.staff_id')
    .leftJoin('staff_venues', (join) =>
      join.onRef('staff_venues.staff_id', '=', 'staff_sessions.staff_id').on('staff_venues.venue_id', '=', arg('venueId')),
    )
    .select(['staff.id as staffId', 'staff.email as email', 'staff_sessions.expires_at as expiresAt', 'staff_venues.role as role'])
    .where('staff_sessions.token_hash', '=', arg('tokenHash'))
    .where('staff_sessions.expires_at', '>', arg('now'))
    .compile(),
);

export async function findLiveSessionAt(db: Executor, tokenHash: string, now: number, venueId: string) {
  return (await liveSessionAt(db, { tokenHash, now, venueId })).rows[0];
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

export async function deleteExpiredSessions(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('staff_sessions').where('expires_at', '<=', now).execute();
}
