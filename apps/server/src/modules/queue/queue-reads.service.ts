import type { Kysely } from 'kysely';
import type { Database, EntryRow, NewEntryRow } from '../../db/types.js';
import { type PaceCache, type VenueBook, findBook } from '../estimate/index.js';
import * as repo from './entries.repository.js';

/**
 * Reads (and the few bulk writes) other modules need of the queue, so none of them reaches into
 * the queue's repositories: the live streams (realtime), the day's figures (host), retention (jobs),
 * the demo seed and identity's events.
 */

type Executor = Kysely<Database>;

export const findEntryById = (db: Executor, id: string): Promise<EntryRow | undefined> => repo.findEntryById(db, id);

/** The entry by its own id, or by its read-only share id (`isShared`). */
export async function findEntryByAnyId(db: Executor, id: string): Promise<{ entry: EntryRow; isShared: boolean } | undefined> {
  const own = await repo.findEntryById(db, id);
  if (own) return { entry: own, isShared: false };
  const shared = await repo.findEntryByShareId(db, id);
  return shared ? { entry: shared, isShared: true } : undefined;
}

/** The live queue of a venue: waiting and called entries in queue order. */
export const listOpenEntries = (db: Executor, venueId: string): Promise<EntryRow[]> => repo.listOpenEntries(db, venueId);

export const findEntriesByIds = (db: Executor, ids: readonly string[]): Promise<EntryRow[]> => repo.findEntriesByIds(db, ids);

/** The estimate's state of a venue, with its floor when it lists its tables (floor-events.ts). */
export const findPace = (db: Executor, venueId: string, now: number): Promise<VenueBook> => findBook(db, venueId, now, repo.listQueueOrder);

/** The pace through the cache when there is one. */
export const findPaceOf = (cache: PaceCache | undefined, db: Executor, venueId: string, at: number): Promise<VenueBook> =>
  cache ? cache.find(db, venueId, at) : findPace(db, venueId, at);

export { type DayEntryRow } from './entries.repository.js';
export const listDayEntries = (db: Executor, venueId: string, from: number, to: number) => repo.listDayEntries(db, venueId, from, to);

/** Erases the personal data of entries that ended before `cutoff` (retention); returns how many. */
export const erasePersonalDataEndedBefore = (db: Executor, cutoff: number, now: number): Promise<number> =>
  repo.erasePersonalDataEndedBefore(db, cutoff, now);

/** Erases the personal data of these entries as retention does (a person's erasure, docs/product.md §9); returns how many. */
export const erasePersonalDataOfEntries = (db: Executor, ids: readonly string[], now: number): Promise<number> =>
  repo.erasePersonalDataOfEntries(db, ids, now);

/** Writes an entry as it is (the demo seed; tests that need a given past). */
export const insertEntryRow = (db: Executor, row: NewEntryRow): Promise<void> => repo.insertEntry(db, row);
