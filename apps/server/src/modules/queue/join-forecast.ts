import { type FloorSeat, type VenueBook, forecastFloor } from '../estimate/index.js';

/** A join waiting for its seat in the floor's forecast. */
interface Newcomer {
  priority: number;
  size: number;
  joinedAt: number;
  resolve(seat: FloorSeat | null): void;
  reject(error: unknown): void;
}

/** The joins placed on one shared book (one change of the venue), in the order they came. */
interface Group {
  /** Every newcomer seen on this book: those of earlier turns still stand before later ones. */
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
 * walk of the queue, not one each (docs/decisions/038-one-forecast-per-change.md). A venue without
 * a floor, or a book without its queue (read inside a transaction), gets null: the estimator quotes.
 */
export function seatAtJoin(book: VenueBook, priority: number, size: number, joinedAt: number): Promise<FloorSeat | null> | null {
  const floor = book.floor;
  if (!floor || !book.queue) return null;
  let group = groups.get(floor);
  if (!group) groups.set(floor, (group = { seen: [], waiting: [] }));
  const g = group;
  return new Promise((resolve, reject) => {
    g.waiting.push({ priority, size, joinedAt, resolve, reject });
    // Joins whose requests were read in this turn of the event loop reach this point before it ends.
    if (g.waiting.length === 1) setImmediate(() => flush(book, g));
  });
}

function flush(book: VenueBook, group: Group): void {
  const batch = group.waiting;
  group.waiting = [];
  try {
    const { state } = book.floor!;
    const waiting: { priority: number; size: number; joinedAt: number }[] = [];
    const called: { id: string; size: number; joinedAt: number; calledAt: number | null }[] = [];
    for (const e of book.queue!) {
      if (e.status === 'active') waiting.push({ priority: e.priority, size: e.party_size, joinedAt: e.created_at });
      else if (e.status === 'called') called.push({ id: e.id, size: e.party_size, joinedAt: e.created_at, calledAt: e.notified_at });
    }
    // Newcomers of earlier turns first, then this turn's: each after everyone of its priority or above.
    for (const n of [...group.seen, ...batch]) {
      const place = waiting.findIndex((w) => w.priority < n.priority);
      waiting.splice(place < 0 ? waiting.length : place, 0, n);
    }
    const index = new Map(waiting.map((w, i) => [w, i]));
    const upTo = Math.max(...batch.map((n) => index.get(n)!));
    const forecast = forecastFloor(state, { waiting, called }, batch[0]!.joinedAt, state.mode, { upTo });
    for (const n of batch) n.resolve(forecast.seats[index.get(n)!] ?? null);
    group.seen.push(...batch.map(({ priority, size, joinedAt }) => ({ priority, size, joinedAt })));
  } catch (error) {
    for (const n of batch) n.reject(error);
  }
}
