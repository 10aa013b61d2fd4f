import type { EntryRow, PaceRow } from '../../db/types.js';
import type { Venue } from '../venues/venue.js';
import type { Placement } from '../waitlist/entry-view.js';
import { VENUE_WIDE_BAND, estimateMinutes } from '../waitlist/pace.js';

const NOT_WAITING: Placement = { globalPos: 0, pos: 0, estimatedTime: null };

/**
 * Every open entry's placement from ONE ordered list of the venue's open entries (priority first,
 * then join order, decisions §4), in memory: the same figures as placeEntry's per-entry counts,
 * at O(entries) for the whole queue instead of a query per entry. Called entries keep their
 * place in the list but count as no one's "ahead".
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
  const advanced = venue.settings.operationMode === 'advanced';
  const venuePace = paces.find((p) => p.band === VENUE_WIDE_BAND);
  const bandPaces = new Map<number, PaceRow>();
  for (const p of paces) if (p.band !== VENUE_WIDE_BAND && p.samples > 0) bandPaces.set(p.band, p);
  const waitingInBand = new Map<number, number>();
  const placement: Placement = { globalPos: 0, pos: 0, estimatedTime: null };
  let waiting = 0;
  for (const row of ordered) {
    if (row.status !== 'active') {
      visit(row, NOT_WAITING);
      continue;
    }
    waiting += 1;
    const inBand = (waitingInBand.get(row.band) ?? 0) + 1;
    waitingInBand.set(row.band, inBand);
    const pos = advanced ? inBand : waiting;
    const bandPace = advanced ? bandPaces.get(row.band) : undefined;
    placement.globalPos = waiting;
    placement.pos = pos;
    placement.estimatedTime = bandPace ? estimateMinutes(bandPace, pos) : estimateMinutes(venuePace, waiting);
    visit(row, placement);
  }
}

export { NOT_WAITING };
