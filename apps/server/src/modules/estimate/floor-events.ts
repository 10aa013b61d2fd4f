import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import { getVenue } from '../venues/venues.service.js';
import { type PaceBook, parseBasis } from './estimator.js';
import { type FloorBook, type FloorState, floorFor, floorReady, forecastFloor, onCall, onEnd, onSeat, parseFloor } from './floor.js';
import { findPaceRows } from './paces.repository.js';
import { deleteFloor, findFloorState, upsertFloor } from './venue-floor.repository.js';

type Executor = Kysely<Database>;

/** An open party as the floor's forecast reads it. */
export type OpenParty = Pick<EntryRow, 'id' | 'status' | 'party_size' | 'created_at' | 'notified_at'>;
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
 * The estimate's state of a venue (`PaceBook`): the estimator's rows and, for a venue that lists
 * its tables, its floor. Read once per change of the queue (pace-cache.ts), so a position read only
 * looks its party up.
 */
export async function findBook(db: Executor, venueId: string, now: number, readQueue: OpenQueueReader): Promise<PaceBook> {
  const [book, floor] = await Promise.all([findPaceRows(db, venueId, now), findFloorBook(db, venueId, now, readQueue)]);
  return floor ? { ...book, floor } : book;
}

/** The venue's floor and every open party's forecast from it, when it has learned enough. */
async function findFloorBook(db: Executor, venueId: string, now: number, readQueue: OpenQueueReader): Promise<FloorBook | undefined> {
  // The kept venue says whether it lists tables: a venue that does not costs no read here.
  if ((await getVenue(db, venueId)).settings.tables.length === 0) return undefined;
  const state = parseFloor(await findFloorState(db, venueId));
  if (!floorReady(state)) return undefined;
  const open = await readQueue(db, venueId);
  const waiting = open.filter((e) => e.status === 'active');
  const called = open
    .filter((e) => e.status === 'called')
    .map((e) => ({ id: e.id, size: e.party_size, joinedAt: e.created_at, calledAt: e.notified_at }));
  const seats = new Map<string, { low: number; mid: number; high: number }>();
  if (waiting.length) {
    const forecast = forecastFloor(
      state,
      { waiting: waiting.map((e) => ({ size: e.party_size, joinedAt: e.created_at })), called },
      now,
      state.mode,
    );
    waiting.forEach((e, i) => {
      const seat = forecast.seats[i];
      if (seat) seats.set(e.id, seat);
    });
  }
  return { state, seats, at: now };
}
