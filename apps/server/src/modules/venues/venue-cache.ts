import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { storeOfWrite } from '../../db/write-batch.js';
import type { Venue } from './venue.js';

/**
 * Parsed venues kept: every position read, join and refresh of a venue's screens needs its venue,
 * and reading and parsing the row (three JSON columns) cost more than the rest of a position read.
 * Writes through venues.repository drop the copy at once. A venue whose events this instance hears
 * (the queue's watch, queue-caches.ts) keeps its copy until one of its venue-wide events (settings,
 * open, lock: every venue write announces one) voids it, up to the hearing's `standsMs` for an
 * event lost on the way (30 s behind Redis, longer on one instance, whose bus loses none); any
 * other venue for SHORT_TTL_MS, so a change on another instance shows within it
 * (docs/decisions/052-venues-kept-while-heard.md). Lock and open state are checked again on the row
 * inside each join.
 *
 * Voiding is a clock, as in the position cache: a read that began before a venue's last change
 * never keeps its row.
 */
const SHORT_TTL_MS = 2_000;
const MAX_VENUES = 5_000;

interface Kept {
  db: Kysely<Database>;
  venue: Venue;
  expires: number;
}

/** How a store's instance hears its venues' events (queue-caches.ts): set once per app. */
export interface VenueHearing {
  hears(venueId: string): boolean;
  watch(venueId: string): void;
  /** How long a heard venue may stand without a read (position-cache.ts `standsMs`). */
  readonly standsMs: number;
  /** The expiries' clock, ms (a test's); performance.now by default. */
  now?: () => number;
}

const kept = new Map<string, Kept>();
const hearings = new WeakMap<Kysely<Database>, VenueHearing>();
let clock = 0;
/** The clock of each venue's last change, and of the oldest change forgotten (the map stays small). */
const changedAt = new Map<string, number>();
let forgottenUpTo = 0;

const clockOf = (db: Kysely<Database>): number => hearings.get(db)?.now?.() ?? performance.now();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Venues read through `db` stay kept while `hearing` hears their events (app.ts sets it). */
export function hearVenuesThrough(db: Kysely<Database>, hearing: VenueHearing): void {
  hearings.set(db, hearing);
}

/**
 * The kept venue read through this same store, if still good. Inside a transaction only a change's
 * write transaction (db/write-batch.ts) is served, from its store's kept venues: a change writes no
 * venue row in it (venue writes go through venues.repository, outside), and what it reads the venue
 * for (its messages' texts, whether a seating is told) may be as old as any other read's; the
 * open and lock state a join checks is read on the row itself (`lockVenueForJoin`).
 */
export function recallVenue(db: Kysely<Database>, id: string): Venue | undefined {
  // A transaction is served only when its store's hearing is set (app.ts; not in a bench's simpler way).
  const store = db.isTransaction ? storeOfWrite(db) : db;
  if (db.isTransaction && (!store || !hearings.has(store))) return undefined;
  const hit = kept.get(id);
  if (!store || !hit || hit.db !== store || hit.expires <= clockOf(store)) return undefined;
  return hit.venue;
}

/**
 * Take before reading a venue's row, hand to `keepVenue`: the clock, and whether the venue's
 * events were heard already (then any change after this moment is heard too).
 */
export function markVenue(db: Kysely<Database>, id: string): { since: number; heard: boolean } {
  return { since: clock, heard: hearings.get(db)?.hears(id) ?? false };
}

/** Keeps a venue read outside a transaction; shared between requests, so frozen. */
export function keepVenue(db: Kysely<Database>, venue: Venue, mark: { since: number; heard: boolean }): Venue {
  if (db.isTransaction) return venue;
  if (mark.since < forgottenUpTo || mark.since < (changedAt.get(venue.id) ?? 0)) return venue;
  // Still heard now: no event was missed between the read and this moment. A venue found but not
  // heard yet is heard from now on (only a row that exists: an unknown id watches nothing).
  const hearing = hearings.get(db);
  const heard = mark.heard && (hearing?.hears(venue.id) ?? false);
  if (hearing && !mark.heard) hearing.watch(venue.id);
  if (kept.size >= MAX_VENUES) kept.delete(kept.keys().next().value as string);
  kept.set(venue.id, {
    db,
    venue: deepFreeze(venue),
    expires: clockOf(db) + (heard && hearing ? hearing.standsMs : SHORT_TTL_MS),
  });
  return venue;
}

/** Drops the kept copy (the venue row changed or is about to); a read begun before never keeps its row. */
export function forgetVenue(id: string): void {
  kept.delete(id);
  clock += 1;
  if (changedAt.size >= MAX_VENUES) {
    // Forget the clocks kept: every read begun before now counts as racing a change.
    changedAt.clear();
    forgottenUpTo = clock;
  }
  changedAt.set(id, clock);
}
