import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import { getVenue } from '../venues/venues.service.js';
import { type PaceBook, parseBasis } from './estimator.js';
import {
  type FloorBook,
  type FloorSeat,
  type FloorState,
  floorFor,
  floorReady,
  forecastFloor,
  forecastKept,
  keptSeats,
  onCall,
  onEnd,
  onSeat,
  parseFloor,
} from './floor.js';
import { findPaceRows } from './paces.repository.js';
import { deleteFloor, findFloorState, upsertFloor } from './venue-floor.repository.js';

type Executor = Kysely<Database>;

/** An open party as the floor's forecast reads it. */
export type OpenParty = Pick<EntryRow, 'id' | 'status' | 'priority' | 'party_size' | 'created_at' | 'notified_at'>;
/** How the estimate reads a venue's open parties in queue order: the queue module hands it its own reader. */
export type OpenQueueReader = (db: Executor, venueId: string) => Promise<readonly OpenParty[]>;

/** What happened to a party, as the floor hears it (floor.ts). */
export type FloorEvent = 'call' | 'seat' | 'end' | 'gaveUp';

/**
 * The floor follows the venue's own events (docs/decisions/022-wait-estimates.md, "The floor"), in
 * the event's transaction, under the floor row's lock on PostgreSQL (SQLite writes one at a time).
 * A venue that lists no tables has no floor; one that stops listing them loses it (`relistFloor`).
 */
export async function recordFloorEvent(
  trx: Executor,
  dialect: 'sqlite' | 'postgres',
  venue: Pick<Venue, 'id' | 'settings'>,
  event: FloorEvent,
  entry: Pick<EntryRow, 'id' | 'party_size' | 'created_at' | 'notified_at'> & Partial<Pick<EntryRow, 'quoted_minutes' | 'quote_basis'>>,
  at: number,
): Promise<void> {
  const tables = venue.settings.tables;
  if (tables.length === 0) return;
  const state = floorFor(tables, parseFloor(await findFloorState(trx, venue.id, dialect === 'postgres')));
  if (!state) return;
  state.mode = venue.settings.operationMode;
  // The floor quoted the party at its join when the basis keeps the estimator's own quote apart
  // (join.service.ts): its range learns from that quote (calibration.ts).
  const floorQuoted = typeof parseBasis(entry.quote_basis ?? null)?.own === 'number' ? (entry.quoted_minutes ?? null) : null;
  const party = { id: entry.id, size: entry.party_size, joinedAt: entry.created_at, calledAt: entry.notified_at, quoted: floorQuoted };
  if (event === 'call') onCall(state, party, at, state.mode);
  else if (event === 'seat') onSeat(state, party, at, state.mode);
  else onEnd(state, party, at, event === 'gaveUp');
  await saveFloor(trx, venue.id, state, at);
}

/**
 * The owner changed the venue's tables (host-settings.service.ts): cleared, its floor goes; another
 * list starts a fresh floor at once, keeping what was learned, so the forecasts read the new tables.
 */
export async function relistFloor(
  db: Executor,
  venueId: string,
  tables: readonly { seats: number; count: number }[],
  at: number,
): Promise<void> {
  if (tables.length === 0) {
    await deleteFloor(db, venueId);
    return;
  }
  const kept = parseFloor(await findFloorState(db, venueId));
  if (!kept) return;
  const state = floorFor(tables, kept);
  if (state && state !== kept) await saveFloor(db, venueId, state, at);
}

async function saveFloor(db: Executor, venueId: string, state: FloorState, at: number): Promise<void> {
  await upsertFloor(db, venueId, JSON.stringify(state), at);
}

/**
 * The estimate's state of a venue (`PaceBook`) and, for a venue that lists its tables, the queue
 * its floor's forecast was made from: a join places its newcomer in it (join.service.ts) instead
 * of reading the queue again.
 */
export interface VenueBook extends PaceBook {
  /** The open parties in queue order the floor's forecast read; only with `floor`. */
  queue?: readonly OpenParty[];
  /**
   * The book this one was worked out from and how many joins were added to it since (pace-cache.ts
   * `addJoined`): the joins placed on a book (join-forecast.ts) are placed after each other.
   */
  origin?: object;
  added?: number;
}

/**
 * The estimate's state of a venue: the estimator's rows and, for a venue that lists its tables,
 * its floor and every waiting party's forecast. Worked out once per change of the venue and shared
 * by every reader (pace-cache.ts), so a position read only looks its party up.
 */
export async function findBook(
  db: Executor,
  venueId: string,
  now: number,
  readQueue: OpenQueueReader,
  options: { tail?: false } = {},
): Promise<VenueBook> {
  const [book, floor] = await Promise.all([
    findPaceRows(db, venueId, now),
    findFloorBook(db, venueId, now, readQueue, options.tail !== false),
  ]);
  return floor ? { ...book, floor: floor.book, queue: floor.queue } : book;
}

/** The venue's floor and every open party's forecast from it, when it has learned enough. */
async function findFloorBook(
  db: Executor,
  venueId: string,
  now: number,
  readQueue: OpenQueueReader,
  tail: boolean,
): Promise<{ book: FloorBook; queue: readonly OpenParty[] } | undefined> {
  // The kept venue says whether it lists tables: a venue that does not costs no read here.
  if ((await getVenue(db, venueId)).settings.tables.length === 0) return undefined;
  const state = parseFloor(await findFloorState(db, venueId));
  if (!floorReady(state)) return undefined;
  const open = await readQueue(db, venueId);
  const queue = floorQueueOf(open);
  if (tail) {
    // With its tail, for the joins at the queue's end (join-forecast.ts), an empty queue too; and
    // its runs, for the book to be rebased (pace-cache.ts): each party's seat worked out when asked.
    const waiting = open.filter((e) => e.status === 'active').map((e, i) => ({ ...queue.waiting[i]!, id: e.id }));
    const kept = forecastKept(state, { waiting, called: queue.called }, now, state.mode);
    return { book: { state, seats: keptSeats(state, kept), at: now, tail: kept }, queue: open };
  }
  const seats = new Map<string, FloorSeat>();
  const forecast = forecastFloor(state, queue, now, state.mode);
  open
    .filter((e) => e.status === 'active')
    .forEach((e, i) => {
      const seat = forecast.seats[i];
      if (seat) seats.set(e.id, seat);
    });
  return { book: { state, seats, at: now }, queue: open };
}

/**
 * The floor's queue (floor.ts `FloorQueue`) of open parties in queue order; with a newcomer, the
 * newcomer at `place` among the waiting (a join's own forecast).
 */
function floorQueueOf(
  open: readonly OpenParty[],
  newcomer?: { size: number; joinedAt: number; place: number },
): { waiting: { size: number; joinedAt: number }[]; called: { id: string; size: number; joinedAt: number; calledAt: number | null }[] } {
  const waiting: { size: number; joinedAt: number }[] = [];
  const called: { id: string; size: number; joinedAt: number; calledAt: number | null }[] = [];
  for (const e of open) {
    if (e.status === 'active') waiting.push({ size: e.party_size, joinedAt: e.created_at });
    else if (e.status === 'called') called.push({ id: e.id, size: e.party_size, joinedAt: e.created_at, calledAt: e.notified_at });
  }
  if (newcomer) waiting.splice(newcomer.place, 0, { size: newcomer.size, joinedAt: newcomer.joinedAt });
  return { waiting, called };
}
