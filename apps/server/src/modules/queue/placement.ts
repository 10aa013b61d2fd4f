import type { EntryRow, PaceRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import { VENUE_WIDE_BAND, estimateMinutes } from './pace.js';

/** Where an entry stands: its place in the whole queue, its place in its band, the estimate. */
export interface Placement {
  globalPos: number;
  pos: number;
  estimatedTime: number | null;
}

/** An entry that is not waiting (called, seated, cancelled) has no place. */
export const NOT_WAITING: Placement = Object.freeze({ globalPos: 0, pos: 0, estimatedTime: null });

/**
 * The queue's order (docs/product.md, the queue): priority first, then join order (the ticket
 * number). Only waiting entries count as "ahead"; a called party keeps its ticket but waits for no
 * one. The SQL counts of queue.repository.ts (countWaitingAhead, findPlacedEntry, placeOfNewest)
 * are this rule written for the store; placement.test.ts checks them against this function.
 */
export function isAhead(a: Pick<EntryRow, 'status' | 'priority' | 'seq'>, b: Pick<EntryRow, 'priority' | 'seq'>): boolean {
  return a.status === 'active' && comesBefore(a, b);
}

/** Queue order between two open entries: priority first, then join order. */
export function comesBefore(a: Pick<EntryRow, 'priority' | 'seq'>, b: Pick<EntryRow, 'priority' | 'seq'>): boolean {
  return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
}

/** What placing needs of a venue, worked out once per venue and pace. */
export interface PlacementRules {
  advanced: boolean;
  venuePace: PaceRow | undefined;
  bandPaces: Map<number, PaceRow>;
}

export function placementRulesOf(venue: Venue, paces: readonly PaceRow[]): PlacementRules {
  const bandPaces = new Map<number, PaceRow>();
  for (const p of paces) if (p.band !== VENUE_WIDE_BAND && p.samples > 0) bandPaces.set(p.band, p);
  return {
    advanced: venue.settings.operationMode === 'advanced',
    venuePace: paces.find((p) => p.band === VENUE_WIDE_BAND),
    bandPaces,
  };
}

/**
 * THE placement of a waiting entry, from the number of waiting parties ahead of it in the whole
 * queue and in its table-size band: every path (join, position read, host queue, live streams)
 * places through here. In advanced mode the place and the estimate are the band's; the estimate
 * falls back to the venue's pace while the band has none. Writes into `out` (the fan-out reuses
 * one object) and returns it.
 */
export function fillPlacement(out: Placement, band: number, ahead: number, aheadInBand: number, rules: PlacementRules): Placement {
  const globalPos = ahead + 1;
  const pos = rules.advanced ? aheadInBand + 1 : globalPos;
  const bandPace = rules.advanced ? rules.bandPaces.get(band) : undefined;
  out.globalPos = globalPos;
  out.pos = pos;
  out.estimatedTime = bandPace ? estimateMinutes(bandPace, pos) : estimateMinutes(rules.venuePace, globalPos);
  return out;
}

/** One entry's placement from its counts of waiting parties ahead (a position read, a join). */
export function placementOf(
  entry: Pick<EntryRow, 'status' | 'band'>,
  venue: Venue,
  ahead: number,
  aheadInBand: number,
  paces: readonly PaceRow[],
): Placement {
  if (entry.status !== 'active') return { ...NOT_WAITING };
  return fillPlacement({ ...NOT_WAITING }, entry.band, ahead, aheadInBand, placementRulesOf(venue, paces));
}

/**
 * Every open entry's placement from ONE list of the venue's open entries in queue order, in
 * memory: O(entries) for the whole queue instead of a count per entry.
 */
export function placeQueue(ordered: readonly EntryRow[], venue: Venue, paces: readonly PaceRow[]): Map<string, Placement> {
  const out = new Map<string, Placement>();
  forEachPlacement(ordered, venue, paces, (row, placement) => out.set(row.id, { ...placement }));
  return out;
}

/**
 * The same walk without building a map: calls `visit` for every entry, in queue order. The
 * placement handed to `visit` is one object reused for every entry (no allocation per diner in a
 * fan-out): read it during the call, copy it to keep it.
 */
export function forEachPlacement<R extends Pick<EntryRow, 'status' | 'band'>>(
  ordered: readonly R[],
  venue: Venue,
  paces: readonly PaceRow[],
  visit: (row: R, placement: Placement) => void,
): void {
  const rules = placementRulesOf(venue, paces);
  const waitingInBand = new Map<number, number>();
  const placement: Placement = { ...NOT_WAITING };
  let waiting = 0;
  for (const row of ordered) {
    if (row.status !== 'active') {
      visit(row, NOT_WAITING);
      continue;
    }
    const aheadInBand = waitingInBand.get(row.band) ?? 0;
    waitingInBand.set(row.band, aheadInBand + 1);
    visit(row, fillPlacement(placement, row.band, waiting, aheadInBand, rules));
    waiting += 1;
  }
}
