import type { Kysely } from 'kysely';
import type { Database, PaceRow } from '../../db/types.js';
import { findPace } from './queue.repository.js';

/**
 * The seating paces of venues, kept for a moment: every position read needs its venue's for the
 * estimate, and they change only when a party is seated. Voided with the venue's kept positions
 * by every event of the venue (queue-caches.ts); a change on another instance whose event this
 * one does not watch shows within TTL_MS.
 */
const TTL_MS = 2_000;
const MAX_VENUES = 5_000;

export interface PaceCache {
  find(db: Kysely<Database>, venueId: string): Promise<PaceRow[]>;
  forget(venueId: string): void;
}

export function createPaceCache(now: () => number = () => performance.now()): PaceCache {
  const kept = new Map<string, { db: Kysely<Database>; pace: PaceRow[]; expires: number }>();
  return {
    async find(db, venueId) {
      const hit = kept.get(venueId);
      if (hit && hit.db === db && hit.expires > now()) return hit.pace;
      const pace = await findPace(db, venueId);
      if (!db.isTransaction) {
        if (kept.size >= MAX_VENUES) kept.delete(kept.keys().next().value as string);
        kept.set(venueId, { db, pace: Object.freeze(pace.map((p) => Object.freeze(p))) as PaceRow[], expires: now() + TTL_MS });
      }
      return pace;
    },
    forget: (venueId) => void kept.delete(venueId),
  };
}

/** The pace through the cache when there is one. */
export const findPaceOf = (cache: PaceCache | undefined, db: Kysely<Database>, venueId: string): Promise<PaceRow[]> =>
  cache ? cache.find(db, venueId) : findPace(db, venueId);
