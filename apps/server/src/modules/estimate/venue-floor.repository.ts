import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/**
 * The `venue_floor` table, a venue's floor as JSON (floor.ts; floor-events.ts keeps it): the only
 * place with its SQL (docs/ARCHITECTURE.md habit 3).
 */

type Executor = Kysely<Database>;

/** The floor's stored state; `lock` holds the row until the transaction ends (PostgreSQL only: SQLite writes one at a time). */
export async function findFloorState(db: Executor, venueId: string, lock = false): Promise<string | undefined> {
  let read = db.selectFrom('venue_floor').select('state').where('venue_id', '=', venueId);
  if (lock) read = read.forUpdate();
  const row = await read.executeTakeFirst();
  return row?.state;
}

export async function deleteFloor(db: Executor, venueId: string): Promise<void> {
  await db.deleteFrom('venue_floor').where('venue_id', '=', venueId).execute();
}

export async function upsertFloor(db: Executor, venueId: string, state: string, at: number): Promise<void> {
  await db
    .insertInto('venue_floor')
    .values({ venue_id: venueId, state, updated_at: at })
    .onConflict((oc) => oc.column('venue_id').doUpdateSet({ state, updated_at: at }))
    .execute();
}
