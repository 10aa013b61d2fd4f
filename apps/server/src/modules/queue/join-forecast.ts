import {
  type FloorSeat,
  type FloorTail,
  type OpenParty,
  type VenueBook,
  copyTail,
  forecastBehind,
  forecastFloor,
} from '../estimate/index.js';

/** Where a join stands in the floor's forecast (floor.ts), as pace-cache.ts `addJoined` takes it. */
export interface JoinSeat {
  seat: FloorSeat | null;
  /** The book it was placed on, how many joins were placed on it before this one, and whether none was placed after it. */
  origin: object;
  index: number;
  last: boolean;
  /** Its row in the book's kept runs, when placed on their tail (floor.ts `KeptRuns`). */
  row?: number;
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
  /** The queue of the book the group began on (its first `length` parties), and how many joins that book had been given already. */
  queue: readonly OpenParty[];
  length: number;
  offset: number;
  /** Every newcomer placed on this book: those of earlier turns still stand before later ones. */
  seen: { priority: number; size: number; joinedAt: number }[];
  /** The lowest priority of a waiting party in the queue and `seen`: a newcomer of no higher priority goes last. */
  lowest: number;
  /**
   * The book's forecast's tail behind everyone placed so far (floor.ts `forecastBehind`); none
   * once a newcomer went ahead of a waiting party (those behind it move), or when the book had none.
   * A kept book's own tail (with its runs, rebased in place: docs/decisions/047-rebased-books.md)
   * is placed on as it is, so that its runs hold every newcomer; any other is copied.
   */
  tail: FloorTail | null;
  waiting: Newcomer[];
}

/** Per shared book (pace-cache.ts keeps one per change of the venue): gone with it. */
const groups = new WeakMap<object, Group>();

/**
 * The floor's forecast of a party joining a venue that lists its tables (floor.ts): the queue the
 * venue's shared book was made from (floor-events.ts `VenueBook`), the newcomer at its place (after
 * every waiting party of its priority or above). A newcomer that goes last (behind every waiting
 * party) is placed on the tail the book's forecast left behind its queue (`forecastBehind`): its
 * runs go on from where the whole queue's ended, O(runs × tables), whatever the queue
 * (docs/decisions/043-busy-venue-joins.md). One placed ahead of someone is forecast with the queue
 * (`forecastFloor` up to it); joins that arrive together on the same book share ONE such forecast,
 * each after those that came before it (docs/decisions/038-one-forecast-per-change.md). Worked out
 * before the join's write: no forecast runs inside the store's write batch. A venue without a
 * floor, or a book without its queue (read inside a transaction), gets null: the estimator quotes alone.
 */
export function seatAtJoin(book: VenueBook, priority: number, size: number, joinedAt: number): Promise<JoinSeat> | null {
  if (!book.floor || !book.queue) return null;
  const origin = book.origin ?? book.floor;
  let group = groups.get(origin);
  if (!group) {
    let lowest = Infinity;
    for (const e of book.queue) if (e.status === 'active' && e.priority < lowest) lowest = e.priority;
    const tail = book.floor.tail;
    group = {
      origin,
      queue: book.queue,
      length: book.queue.length,
      offset: book.added ?? 0,
      seen: [],
      lowest,
      tail: tail?.kept ? tail : tail ? copyTail(tail) : null,
      waiting: [],
    };
    groups.set(origin, group);
  }
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
    const before = group.offset + group.seen.length;
    let lowest = group.lowest;
    const last = batch.map((n) => {
      const goesLast = n.priority <= lowest;
      lowest = Math.min(lowest, n.priority);
      return goesLast;
    });
    const behind = group.tail && last.every(Boolean) ? group.tail : null;
    const firstRow = behind?.kept?.rows;
    const seats = behind ? forecastBehind(state, behind, batch, batch[0]!.joinedAt, state.mode) : withQueue(group, batch, state);
    group.lowest = lowest;
    batch.forEach((n, i) =>
      n.resolve({
        seat: seats[i] ?? null,
        origin: group.origin,
        index: before + i,
        last: last[i]!,
        ...(firstRow === undefined ? {} : { row: firstRow + i }),
      }),
    );
    group.seen.push(...batch.map(({ priority, size, joinedAt }) => ({ priority, size, joinedAt })));
  } catch (error) {
    for (const n of batch) n.reject(error);
  }
}

/**
 * The newcomers' seats from the forecast of the whole queue up to the last of them: the book's
 * queue, the newcomers of earlier turns, then this turn's, each after everyone of its priority or
 * above. One placed ahead of a waiting party moves those behind it: the tail no longer stands.
 */
function withQueue(group: Group, batch: readonly Newcomer[], state: NonNullable<VenueBook['floor']>['state']): (FloorSeat | null)[] {
  const waiting: { priority: number; size: number; joinedAt: number }[] = [];
  const called: { id: string; size: number; joinedAt: number; calledAt: number | null }[] = [];
  for (let k = 0; k < group.length; k++) {
    const e = group.queue[k]!;
    if (e.status === 'active') waiting.push({ priority: e.priority, size: e.party_size, joinedAt: e.created_at });
    else if (e.status === 'called') called.push({ id: e.id, size: e.party_size, joinedAt: e.created_at, calledAt: e.notified_at });
  }
  for (const n of [...group.seen, ...batch]) {
    const place = waiting.findIndex((w) => w.priority < n.priority);
    waiting.splice(place < 0 ? waiting.length : place, 0, n);
  }
  const index = new Map(waiting.map((w, i) => [w, i]));
  const upTo = Math.max(...batch.map((n) => index.get(n)!));
  const forecast = forecastFloor(state, { waiting, called }, batch[0]!.joinedAt, state.mode, { upTo });
  // The tail knows none of them (and those behind one placed ahead of someone moved).
  group.tail = null;
  return batch.map((n) => forecast.seats[index.get(n)!] ?? null);
}
