import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';

/** What a refresh needs of each open entry to place it and to tell whether its message changed. */
export type QueueRow = Pick<
  EntryRow,
  'id' | 'status' | 'priority' | 'seq' | 'band' | 'party_size' | 'cancel_reason' | 'notified_at' | 'seated_at'
>;

/**
 * The venue's open entries in queue order, narrow: measured on SQLite with 10,000 open entries,
 * `select *` took several times as long as these columns (the sort carries whole rows).
 */
export function listQueueOrder(db: Kysely<Database>, venueId: string): Promise<QueueRow[]> {
  return db
    .selectFrom('entries')
    .select(['id', 'status', 'priority', 'seq', 'band', 'party_size', 'cancel_reason', 'notified_at', 'seated_at'])
    .where('venue_id', '=', venueId)
    .where('status', 'in', ['active', 'called'])
    .orderBy('priority', 'desc')
    .orderBy('seq', 'asc')
    .execute();
}

/** Whole rows of some entries (messages to build, entries that left the queue), in chunks. */
export async function findEntriesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<EntryRow[]> {
  const out: EntryRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    out.push(
      ...(await db
        .selectFrom('entries')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  }
  return out;
}

/** The narrow rows of some entries of a venue (the ones venue events name), whatever their status. */
export function findQueueRowsByIds(db: Kysely<Database>, venueId: string, ids: readonly string[]): Promise<QueueRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('entries')
    .select(['id', 'status', 'priority', 'seq', 'band', 'party_size', 'cancel_reason', 'notified_at', 'seated_at'])
    .where('venue_id', '=', venueId)
    .where('id', 'in', ids)
    .execute();
}
