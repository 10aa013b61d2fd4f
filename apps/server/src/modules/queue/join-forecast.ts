import { type FloorSeat, type OpenParty, type VenueBook, forecastFloor } from '../estimate/index.js';

/** Where a join stands in the floor's forecast (floor.ts), as pace-cache.ts `addJoined` takes it. */
export interface JoinSeat {
  seat: FloorSeat | null;
  /** The book it was placed on, how many joins were placed on it before this one, and whether none was placed after it. */
  origin: object;
  index: number;
  last: boolean;
}

/** A join waiting for its seat. */
interface Newcomer {
  priority: number;
  size: number;
  joinedAt: number;
  resolve(seat: JoinSeat): void;
  reject(error: unknown): void;
}

/** The joins placed on one shared book (one change of the venue), in the order they came. */
interface Group {
  origin: object;
  /** The queue of the book the group began on, and how many joins that book had been given already. */
  queue: readonly OpenParty[];
  offset: number;
  /** Every newcomer placed on this book: those of earlier turns still stand before later ones. */
  seen: { priority: number; size: number; joinedAt: number }[];
  waiting: Newcomer[];
}

/** Per shared book (pace-cache.ts keeps one per change of the venue): gone with it. */
const groups = new WeakMap<object, Group>();

/**
 * The floor's forecast of a party joining a venue that lists its tables (floor.ts): the queue the
 * venue's shared book was made from (floor-events.ts `VenueBook`), the newcomer at its place (after
 * every waiting party of its priority or above). Joins that arrive together on the same book share
 * ONE forecast, each after those that came before it, so a burst of joins at a busy venue costs one
 * walk of the queue, not one each (docs/decisions/038-one-forecast-per-change.md). Worked out before
 * the join's write: no forecast runs inside the store's write batch. A venue without a floor, or a
 * book without its queue (read inside a transaction), gets null: the estimator quotes alone.
 */
export function seatAtJoin(book: VenueBook, priority: number, size: number, joinedAt: number): Promise<JoinSeat> | null {
  if (!book.floor || !book.queue) return null;
  const origin = book.origin ?? book.floor;
  let group = groups.get(origin);
  if (!group) groups.set(origin, (group = { origin, queue: book.queue, offset: book.added ?? 0, seen: [], waiting: [] }));
  const g = group;
  const { state } = book.floor;
  return new Promise((resolve, reject) => {
    g.waiting.push({ priority, size, joinedAt, resolve, reject });
    // Joins whose requests were read in this turn of the event loop reach this point before it ends.
    if (g.waiting.length === 1) setImmediate(() => flush(g, state));
  });
}

function flush(group: Group, state: NonNullable<VenueBook['floor']>['state']): void {
  const batch = group.waiting;
  group.waiting = [];
  try {
    const waiting: { priority: number; size: number; joinedAt: number }[] = [];
    const called: { id: string; size: number; joinedAt: number; calledAt: number | null }[] = [];
    for (const e of group.queue) {
      if (e.status === 'active') waiting.push({ priority: e.priority, size: e.party_size, joinedAt: e.created_at });
      else if (e.status === 'called') called.push({ id: e.id, size: e.party_size, joinedAt: e.created_at, calledAt: e.notified_at });
    }
    // Newcomers of earlier turns first, then this turn's: each after everyone of its priority or
    // above. One placed at the end moves no one ahead of it (`last`).
    const last = new Set<object>();
    for (const n of [...group.seen, ...batch]) {
      const place = waiting.findIndex((w) => w.priority < n.priority);
      if (place < 0) last.add(n);
      waiting.splice(place < 0 ? waiting.length : place, 0, n);
    }
    const index = new Map(waiting.map((w, i) => [w, i]));
    const upTo = Math.max(...batch.map((n) => index.get(n)!));
    const forecast = forecastFloor(state, { waiting, called }, batch[0]!.joinedAt, state.mode, { upTo });
    const before = group.offset + group.seen.length;
    batch.forEach((n, i) =>
      n.resolve({ seat: forecast.seats[index.get(n)!] ?? null, origin: group.origin, index: before + i, last: last.has(n) }),
    );
    group.seen.push(...batch.map(({ priority, size, joinedAt }) => ({ priority, size, joinedAt })));
  } catch (error) {
    for (const n of batch) n.reject(error);
  }
}
