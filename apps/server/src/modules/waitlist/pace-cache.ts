import type { Kysely } from 'kysely';
import type { Database, PaceRow } from '../../db/types.js';
import { findPace } from './waitlist.repository.js';

/**
 * The seating pace of a venue, kept for a moment: every position read needs it for the estimate,
 * and it changes only when a party is seated (seatEntry forgets it at once; other instances see
 * the change within TTL_MS, an estimate a second or two old).
 */
const TTL_MS = 2_000;
const MAX_VENUES = 5_000;
const kept = new Map<string, { db: Kysely<Database>; pace: PaceRow[]; expires: number }>();

export async function findPaceKept(db: Kysely<Database>, venueId: string): Promise<PaceRow[]> {
  const hit = kept.get(venueId);
  if (hit && hit.db === db && hit.expires > performance.now()) return hit.pace;
  const pace = await findPace(db, venueId);
  if (!db.isTransaction) {
    if (kept.size >= MAX_VENUES) kept.delete(kept.keys().next().value as string);
    kept.set(venueId, { db, pace: Object.freeze(pace.map((p) => Object.freeze(p))) as PaceRow[], expires: performance.now() + TTL_MS });
  }
  return pace;
}

export function forgetPace(venueId: string): void {
  kept.delete(venueId);
}
