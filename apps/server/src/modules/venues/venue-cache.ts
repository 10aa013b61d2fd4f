import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Venue } from './venue.js';

/**
 * Parsed venues kept for a moment: every position read and join needs its venue, and reading and
 * parsing the row (three JSON columns) cost more than the rest of a position read. Writes through
 * venues.repository drop the copy at once; on other instances (several servers on one PostgreSQL)
 * a change shows within TTL_MS. Lock and open state are checked again on the row inside each join.
 */
const TTL_MS = 2_000;
const MAX_VENUES = 5_000;

interface Kept {
  db: Kysely<Database>;
  venue: Venue;
  expires: number;
}

const kept = new Map<string, Kept>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The kept venue read through this same store, if still fresh. Never inside a transaction. */
export function recallVenue(db: Kysely<Database>, id: string): Venue | undefined {
  const hit = kept.get(id);
  if (!hit || hit.db !== db || hit.expires <= performance.now()) return undefined;
  return hit.venue;
}

/** Keeps a venue read outside a transaction; shared between requests, so frozen. */
export function keepVenue(db: Kysely<Database>, venue: Venue): Venue {
  if (db.isTransaction) return venue;
  if (kept.size >= MAX_VENUES) kept.delete(kept.keys().next().value as string);
  kept.set(venue.id, { db, venue: deepFreeze(venue), expires: performance.now() + TTL_MS });
  return venue;
}

/** Drops the kept copy (the venue row changed or is about to). */
export function forgetVenue(id: string): void {
  kept.delete(id);
}
