import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type PaceBook, slotOf } from './estimator.js';
import { type FloorSeat, type FloorTail, copyTail, forecastBehind, keptSeats, rebaseKept } from './floor.js';
import { type OpenParty, type OpenQueueReader, type VenueBook, findBook } from './floor-events.js';

/**
 * The estimate's state of venues (`findBook`: the estimator's rows and, for a venue that lists its
 * tables, the whole queue's forecast, floor.ts), kept per change of the venue and shared by every
 * reader: position reads, the live streams, the console, the getting-close check and joins
 * (docs/decisions/038-one-forecast-per-change.md). The first reader after a change works it out;
 * readers arriving meanwhile await the same promise, so a change costs one forecast however many
 * read it. Voided by every event of the venue that changes it (queue-caches.ts): a book worked out
 * from before an event is never kept after it (the reader that asked for it still gets it). A
 * change on another instance whose event this one does not watch shows within TTL_MS.
 *
 * A join at the end of a venue's queue moves no one ahead of it (the floor gives each freed table
 * to the first waiting party it fits, in queue order): its own forecast, worked out before its
 * write (join-forecast.ts), is added to the kept book (`addJoined`) instead of forecasting the whole
 * queue again, and its event then leaves the book alone. A book read after the join committed has
 * it already; one still being read when the join committed gets it added once read, if it lacks it.
 *
 * A book expires after TTL_MS: its forecast is of its moment (docs/decisions/043-busy-venue-joins.md,
 * "The 2 s expiry stays"). When nothing was heard at the venue since it was read (no event voided
 * it), and this instance heard the venue's events from before that read on (`heard`), it is
 * rebased instead of read again (docs/decisions/047-rebased-books.md): the runs in which the venue
 * would have seen something by now are played again from now (floor.ts `rebaseKept`), the others
 * stand; a book without a floor (the estimator's rows, which only a seating changes) stands as it
 * is. A book is read again from the store at least every REREAD_MS (or the hearing's own
 * `standsMs`: longer on one instance, whose bus loses no event), for an event this instance missed.
 */
const TTL_MS = 2_000;
const REREAD_MS = 30_000;
const MAX_VENUES = 5_000;

/** A committed join's forecast, as join-forecast.ts placed it. */
export interface JoinedParty {
  party: OpenParty;
  seat: FloorSeat | null;
  /** The book it was placed on (`VenueBook.origin`) and how many joins stood before it there. */
  origin: object;
  index: number;
  /** No waiting party was placed after it: the forecast of everyone ahead stands. */
  last: boolean;
  /** Its row in the kept runs of the book it was placed on (floor.ts `KeptRuns`), when placed on their tail. */
  row?: number;
}

export interface PaceCache {
  find(db: Kysely<Database>, venueId: string, at: number): Promise<VenueBook>;
  forget(venueId: string): void;
  /** The kept book has a floor (floor.ts), or is still being worked out: it forecasts the whole queue, so any event voids it. */
  hasFloor(venueId: string): boolean;
  /** Adds a committed join to the kept book, when that book is the one it was placed on; true when it did. */
  addJoined(venueId: string, joined: JoinedParty): boolean;
  /** The kept book has this join already (its event need not void it). */
  hasJoined(venueId: string, entryId: string): boolean;
}

interface Kept {
  db: Kysely<Database>;
  slot: number;
  expires: number;
  pending: Promise<VenueBook>;
  book: VenueBook | undefined;
  /** Joins added to the book since it was worked out. */
  joined: Set<string>;
  /** Joins committed while the book was being read: added to it once read, if it lacks them. */
  early: Map<string, JoinedParty>;
  /** The ids of the book's queue, once asked (`hasJoined`, `addJoined`). */
  ids?: Set<string>;
  /** When it was read from the store; and whether it may be rebased (every event of the venue heard since before that read, every join in its runs). */
  readAt: number;
  rebase: boolean;
}

export function createPaceCache(
  readQueue: OpenQueueReader,
  now: () => number = () => performance.now(),
  options: {
    tail?: false;
    /** Rebase expired books (a bench's server turns it off: `rebase: false`). */
    rebase?: false;
    /**
     * Whether this instance hears every event of a venue, here and from other instances, and a
     * way to start hearing them (queue-caches.ts: the positions' watch), asked for a venue once its
     * first book is read. A book is rebased only if its venue was heard from before its read;
     * `standsMs`: how long it may be rebased without a read (REREAD_MS by default).
     */
    heard?: { hears(venueId: string): boolean; watch(venueId: string): void; standsMs?: number };
  } = {},
): PaceCache {
  // One book per venue, for its current change: `forget` drops it.
  const kept = new Map<string, Kept>();
  return {
    async find(db, venueId, at) {
      if (db.isTransaction) return findBook(db, venueId, at, readQueue);
      const slot = slotOf(at);
      const hit = kept.get(venueId);
      // A kept book is good for its hour of the week; the quote ages its forecast to `at` itself.
      if (hit && hit.db === db && hit.slot === slot) {
        if (hit.expires > now()) {
          const book = hit.book ?? (await hit.pending);
          return book.at === at ? book : { ...book, at };
        }
        const rebased = hit.rebase && now() - hit.readAt < (options.heard?.standsMs ?? REREAD_MS) ? rebase(hit, at) : undefined;
        if (rebased) {
          hit.expires = now() + TTL_MS;
          return rebased;
        }
      }
      // Heard from before the read on: an event after it voids this book (`forget`).
      const rebasing = options.rebase !== false && options.tail !== false && options.heard !== undefined;
      const heard = rebasing && options.heard!.hears(venueId);
      const entry: Kept = {
        db,
        slot,
        expires: now() + TTL_MS,
        pending: findBook(db, venueId, at, readQueue, options),
        book: undefined,
        joined: new Set(),
        early: new Map(),
        readAt: now(),
        rebase: heard,
      };
      if (kept.size >= MAX_VENUES && !kept.has(venueId)) kept.delete(kept.keys().next().value as string);
      kept.set(venueId, entry);
      try {
        const found = await entry.pending;
        // The venue is heard from now on: its next books may be rebased.
        if (rebasing && !heard) options.heard!.watch(venueId);
        let book: VenueBook | undefined = freeze(found.floor ? { ...found, origin: found.floor, added: 0 } : found);
        if (kept.get(venueId) === entry) {
          for (const joined of entry.early.values()) book = book && withJoined(book, joined, entry);
          if (book) entry.book = book;
          else kept.delete(venueId);
        }
        return book ?? found;
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
    addJoined(venueId, joined) {
      const hit = kept.get(venueId);
      if (!hit) return false;
      if (!hit.book) {
        hit.early.set(joined.party.id, joined);
        return true;
      }
      const book = withJoined(hit.book, joined, hit);
      if (book) hit.book = book;
      return book !== undefined;
    },
    hasJoined(venueId, entryId) {
      const hit = kept.get(venueId);
      // Added here, or read after it committed (a join on another instance).
      return (
        hit !== undefined &&
        (hit.joined.has(entryId) || hit.early.has(entryId) || (hit.book !== undefined && idsOf(hit, hit.book).has(entryId)))
      );
    },
  };
}

/**
 * The kept book brought to `at` (floor.ts `rebaseKept`), when it has its runs: the same queue,
 * the estimator's same rows (good for the hour), the floor's runs given that nothing happened. A
 * book without a floor is the estimator's rows alone, which only a seating changes: it stands as
 * it is, dated `at`.
 */
function rebase(hit: Kept, at: number): VenueBook | undefined {
  const book = hit.book;
  if (book && !book.floor && !book.queue) return book.at === at ? book : { ...book, at };
  const floor = book?.floor;
  const tail = floor?.tail;
  if (!book || !floor || !tail?.kept) return undefined;
  if (at <= tail.kept.at) return book.at === at ? book : { ...book, at };
  const withRuns = { ...tail, kept: tail.kept };
  rebaseKept(floor.state, withRuns, at, floor.state.mode);
  const rebased = freeze({ ...book, at, floor: { ...floor, at, seats: keptSeats(floor.state, withRuns) } });
  hit.book = rebased;
  return rebased;
}

/**
 * The book with a committed join in it: as it was when it has the party already (read after the
 * commit), with the party's own forecast when it was placed last (no one ahead of it moves), else
 * none (the whole queue must be forecast again). The party and its seat are appended to the book's
 * own queue and seats (made with it by `findBook`, never shared outside this cache), not copied: a
 * join costs no walk of the queue. A reader still holding the book before may see the newcomer in
 * it too; nothing it had changes.
 */
function withJoined(book: VenueBook, joined: JoinedParty, kept: Pick<Kept, 'joined' | 'ids' | 'rebase'>): VenueBook | undefined {
  const { floor, queue } = book;
  if (!floor || !queue) return undefined;
  const id = joined.party.id;
  const ids = idsOf(kept, book);
  if (ids.has(id)) {
    kept.joined.add(id);
    return book;
  }
  if (!joined.last) return undefined;
  kept.joined.add(id);
  ids.add(id);
  (queue as OpenParty[]).push(joined.party);
  if (joined.seat) (floor.seats as Map<string, FloorSeat>).set(id, joined.seat);
  // Joins placed on this very book, in order, keep placing the next ones after them (join-forecast.ts).
  const own = book.origin === joined.origin;
  const next = own && book.added === joined.index ? joined.index + 1 : book.added;
  const runs = floor.tail?.kept;
  if (own) {
    // Placed on this book's kept runs (join-forecast.ts places on their tail): its row there, and
    // the book can still be rebased (docs/decisions/047-rebased-books.md); else it cannot.
    if (runs && joined.row !== undefined) runs.rowOf.set(id, joined.row);
    else kept.rebase = false;
    return freeze({ ...book, added: next });
  }
  if (!floor.tail) {
    kept.rebase = false;
    return freeze({ ...book, added: next });
  }
  // Placed on another book (committed while this one was read): the tail of this one's forecast
  // (floor.ts `forecastBehind`) must stand behind it too, for the joins placed on this one. Only
  // one of the lowest priority is behind everyone for sure; after another, none. The kept runs
  // take it on their own tail, behind those placed on them already (joined within the same moments).
  if (runs && joined.party.priority === 0) {
    const row = runs.rows;
    forecastBehind(floor.state, floor.tail, [{ size: joined.party.party_size }], joined.party.created_at, floor.state.mode);
    runs.rowOf.set(id, row);
    return freeze({ ...book, added: next });
  }
  kept.rebase = false;
  let tail: FloorTail | undefined;
  if (joined.party.priority === 0) {
    tail = copyTail(floor.tail);
    forecastBehind(floor.state, tail, [{ size: joined.party.party_size }], joined.party.created_at, floor.state.mode);
  }
  const { tail: _, ...rest } = floor;
  return freeze({ ...book, floor: tail ? { ...rest, tail } : rest, added: next });
}

/** The ids of the book's queue (made once per kept book, then kept with its appends). */
function idsOf(kept: Pick<Kept, 'ids'>, book: VenueBook): Set<string> {
  return (kept.ids ??= new Set(book.queue?.map((p) => p.id)));
}

/** Shared by every reader: none may change it. */
function freeze<T extends PaceBook>(book: T): T {
  return Object.freeze({
    ...book,
    paces: Object.freeze(book.paces.map((p) => Object.freeze(p))),
    slots: Object.freeze(book.slots),
  });
}
