import type { Kysely } from 'kysely';
import type { Database, UserEventTable } from '../../db/types.js';

/** The `user_events` table: the only place with its SQL (docs/ARCHITECTURE.md habit 3). */

type Executor = Kysely<Database>;

export async function insertUserEvent(db: Executor, row: UserEventTable): Promise<void> {
  await db.insertInto('user_events').values(row).execute();
}

export function listUserEvents(db: Executor, userId: string) {
  return db.selectFrom('user_events').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

/** Deletes every user event recorded before `cutoff` (retention, docs/security.md); answers how many. */
export async function deleteUserEventsBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('user_events').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Keeps a user's newest `keep` events (by time, then id) and deletes the rest. */
export async function keepNewestUserEvents(db: Executor, userId: string, keep: number): Promise<void> {
  const newest = db
    .selectFrom('user_events')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  // PostgreSQL and SQLite both take a LIMIT in a sub-select; wrapped once more for engines that do not.
  await db
    .deleteFrom('user_events')
    .where('user_id', '=', userId)
    .where('id', 'not in', db.selectFrom(newest.as('newest')).select('newest.id'))
    .execute();
}
