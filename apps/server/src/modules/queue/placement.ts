import type { EntryRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import { type Before, type PaceBook, estimate, quoteOfSeat } from '../estimate/index.js';

/** Where an entry stands: its place in the whole queue, its place in its band, the estimate. */
export interface Placement {
  globalPos: number;
  pos: number;
  /** Minutes (docs/product.md §4); null without a pace or history. */
  estimatedTime: number | null;
  estimatedRange: { low: number; high: number } | null;
}

/** An entry that is not waiting (called, seated, cancelled) has no place. */
export const NOT_WAITING: Placement = Object.freeze({ globalPos: 0, pos: 0, estimatedTime: null, estimatedRange: null });

/** What stands between a waiting party and its table, counted in the whole venue and in its band (called parties take a table first). */
export type QueueCounts = Before;

/**
 * The queue's order (docs/product.md, the queue): priority first, then join order (the ticket
 * number). Only waiting entries count as "ahead"; a called party keeps its ticket but waits for no
 * one. The SQL counts of entries.repository.ts (countWaitingAhead, findPlacedEntry) and
 * waiting-counts.repository.ts (placeOfNewest)
 * are this rule written for the store; placement.test.ts checks them against this function.
 */
export function isAhead(a: Pick<EntryRow, 'status' | 'priority' | 'seq'>, b: Pick<EntryRow, 'priority' | 'seq'>): boolean {
  return a.status === 'active' && comesBefore(a, b);
}

/** Queue order between two open entries: priority first, then join order. */
export function comesBefore(a: Pick<EntryRow, 'priority' | 'seq'>, b: Pick<EntryRow, 'priority' | 'seq'>): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
}

/**
 * THE placement of a waiting entry, from what stands before it in the whole queue and in its
 * table-size band: every path (join, position read, host queue, live streams) places through
 * here. In advanced mode the place is the band's; the estimate weighs what stands before the party
 * in its band and in the venue in either mode (estimator.ts). Writes into `out` (the fan-out reuses one object)
 * and returns it.
 */
export function fillPlacement(
  out: Placement,
  band: number,
  counts: QueueCounts,
  advanced: boolean,
  book: PaceBook,
  id?: string,
): Placement {
  const globalPos = counts.ahead + 1;
  const pos = advanced ? counts.aheadInBand + 1 : globalPos;
  // A venue that lists its tables: the floor's forecast of this party, worked out once per change
  // of the queue (floor-events.ts); the estimator's otherwise.
  const seat = id === undefined ? undefined : book.floor?.seats.get(id);
  const quote = seat ? quoteOfSeat(seat, book.at) : estimate(book, band, counts);
  out.globalPos = globalPos;
  out.pos = pos;
  out.estimatedTime = quote ? quote.time : null;
  out.estimatedRange = quote ? { low: quote.low, high: quote.high } : null;
  return out;
}

/** One entry's placement from its counts (a position read, a join). */
export function placementOf(
  entry: Pick<EntryRow, 'status' | 'band'> & { id?: string },
  venue: Venue,
  counts: QueueCounts,
  book: PaceBook,
): Placement {
  if (entry.status !== 'active') return { ...NOT_WAITING };
  return fillPlacement({ ...NOT_WAITING }, entry.band, counts, venue.settings.operationMode === 'advanced', book, entry.id);
}

/**
 * Every open entry's placement from ONE list of the venue's open entries in queue order, in
 * memory: O(entries) for the whole queue instead of a count per entry.
 */
export function placeQueue(
  ordered: readonly Pick<EntryRow, 'id' | 'status' | 'band'>[],
  venue: Venue,
  book: PaceBook,
): Map<string, Placement> {
  const out = new Map<string, Placement>();
  forEachPlacement(ordered, venue, book, (row, placement) => out.set(row.id, { ...placement }));
  return out;
}

/**
 * The same walk without building a map: calls `visit` for every entry, in queue order. The
 * placement handed to `visit` is one object reused for every entry (no allocation per diner in a
 * fan-out): read it during the call, copy it to keep it.
 */
export function forEachPlacement<R extends Pick<EntryRow, 'status' | 'band'> & { id?: string }>(
  ordered: readonly R[],
  venue: Venue,
  book: PaceBook,
  visit: (row: R, placement: Placement) => void,
): void {
  const advanced = venue.settings.operationMode === 'advanced';
  // Called parties take a table before anyone waiting, wherever they stand in the list.
  // Per band (index: band): the estimate's size classes count theirs from these (estimator.ts).
  const calledByBand: number[] = [];
  const aheadByBand: number[] = [];
  let called = 0;
  for (const row of ordered) {
    if (row.status !== 'called') continue;
    called += 1;
    addTo(calledByBand, row.band);
  }
  const placement: Placement = { ...NOT_WAITING };
  const counts: QueueCounts = { ahead: 0, aheadInBand: 0, called, calledInBand: 0, aheadByBand, calledByBand };
  for (const row of ordered) {
    if (row.status !== 'active') {
      visit(row, NOT_WAITING);
      continue;
    }
    counts.aheadInBand = aheadByBand[row.band] ?? 0;
    counts.calledInBand = calledByBand[row.band] ?? 0;
    visit(row, fillPlacement(placement, row.band, counts, advanced, book, row.id));
    addTo(aheadByBand, row.band);
    counts.ahead += 1;
  }
}

function addTo(counts: number[], band: number): void {
  while (counts.length <= band) counts.push(0);
  counts[band] = counts[band]! + 1;
}
