import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type PaceBook, slotOf } from './estimator.js';
import { type OpenQueueReader, findBook } from './floor-events.js';

/**
 * The estimator's state of venues (estimator.ts), kept for a moment: every position read needs its
 * venue's for the estimate, and they change only when a party is seated. Voided with the venue's kept positions
 * by every event of the venue (queue-caches.ts); a change on another instance whose event this
 * one does not watch shows within TTL_MS.
 */
const TTL_MS = 2_000;
const MAX_VENUES = 5_000;

export interface PaceCache {
  find(db: Kysely<Database>, venueId: string, at: number): Promise<PaceBook>;
  forget(venueId: string): void;
  /** The kept book has a floor (floor.ts): it forecasts the whole queue, so any event voids it. */
  hasFloor(venueId: string): boolean;
}

export function createPaceCache(readQueue: OpenQueueReader, now: () => number = () => performance.now()): PaceCache {
  const kept = new Map<string, { db: Kysely<Database>; book: PaceBook; expires: number }>();
  return {
    async find(db, venueId, at) {
      const hit = kept.get(venueId);
      // A kept book is good for its hour of the week; the quote ages its pace to `at` itself.
      if (hit && hit.db === db && hit.expires > now() && hit.book.slot === slotOf(at)) return { ...hit.book, at };
      const book = await findBook(db, venueId, at, readQueue);
      if (!db.isTransaction) {
        if (kept.size >= MAX_VENUES) kept.delete(kept.keys().next().value as string);
        const frozen = Object.freeze({
          ...book,
          paces: Object.freeze(book.paces.map((p) => Object.freeze(p))),
          slots: Object.freeze(book.slots),
        });
        kept.set(venueId, { db, book: frozen, expires: now() + TTL_MS });
      }
      return book;
    },
    forget: (venueId) => void kept.delete(venueId),
    hasFloor: (venueId) => kept.get(venueId)?.book.floor !== undefined,
  };
}
