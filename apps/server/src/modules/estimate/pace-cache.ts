import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type PaceBook, slotOf } from './estimator.js';
import { type OpenQueueReader, type VenueBook, findBook } from './floor-events.js';

/**
 * The estimate's state of venues (`findBook`: the estimator's rows and, for a venue that lists its
 * tables, the whole queue's forecast, floor.ts), kept per change of the venue and shared by every
 * reader: position reads, the live streams, the console, the getting-close check and joins. The
 * first reader after a change works it out; readers arriving meanwhile await the same promise, so
 * a change costs one forecast however many read it. Voided by every event of the venue that changes
 * it (queue-caches.ts): a book worked out from before an event never serves a read started after
 * it. A change on another instance whose event this one does not watch shows within TTL_MS.
 */
const TTL_MS = 2_000;
const MAX_VENUES = 5_000;

export interface PaceCache {
  find(db: Kysely<Database>, venueId: string, at: number): Promise<VenueBook>;
  forget(venueId: string): void;
  /** The kept book has a floor (floor.ts), or is still being worked out: it forecasts the whole queue, so any event voids it. */
  hasFloor(venueId: string): boolean;
}

interface Kept {
  db: Kysely<Database>;
  slot: number;
  expires: number;
  pending: Promise<VenueBook>;
  book: VenueBook | undefined;
}

export function createPaceCache(readQueue: OpenQueueReader, now: () => number = () => performance.now()): PaceCache {
  // One book per venue, for its current change: `forget` drops it, so a book worked out from
  // before an event is never kept after it (the reader that asked for it still gets it).
  const kept = new Map<string, Kept>();
  return {
    async find(db, venueId, at) {
      if (db.isTransaction) return findBook(db, venueId, at, readQueue);
      const slot = slotOf(at);
      const hit = kept.get(venueId);
      // A kept book is good for its hour of the week; the quote ages its forecast to `at` itself.
      if (hit && hit.db === db && hit.slot === slot && hit.expires > now()) {
        const book = hit.book ?? (await hit.pending);
        return book.at === at ? book : { ...book, at };
      }
      const entry: Kept = { db, slot, expires: now() + TTL_MS, pending: findBook(db, venueId, at, readQueue), book: undefined };
      if (kept.size >= MAX_VENUES && !kept.has(venueId)) kept.delete(kept.keys().next().value as string);
      kept.set(venueId, entry);
      try {
        const book = freeze(await entry.pending);
        if (kept.get(venueId) === entry) entry.book = book;
        return book;
      } catch (error) {
        if (kept.get(venueId) === entry) kept.delete(venueId);
        throw error;
      }
    },
    forget: (venueId) => void kept.delete(venueId),
    hasFloor(venueId) {
      const hit = kept.get(venueId);
      return hit !== undefined && (hit.book === undefined || hit.book.floor !== undefined);
    },
  };
}

/** Shared by every reader: none may change it. */
function freeze<T extends PaceBook>(book: T): T {
  return Object.freeze({
    ...book,
    paces: Object.freeze(book.paces.map((p) => Object.freeze(p))),
    slots: Object.freeze(book.slots),
  });
}
