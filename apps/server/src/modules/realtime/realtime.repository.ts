import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';

/** The rows of entries that changed and may have left the open queue (seated, cancelled). */
export function findEntriesByIds(db: Kysely<Database>, ids: readonly string[]): Promise<EntryRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('entries').selectAll().where('id', 'in', ids).execute();
}
