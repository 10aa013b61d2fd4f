import type { EntryRow, PaceRow, PaceSlotRow } from '../../db/types.js';

/**
 * The pace (docs/decisions/022-wait-estimates.md, "The estimator" 1): how long one seating takes
 * while parties wait, the service interval. The interval of a seating is the time since the
 * previous seating or since the party joined, whichever is later: a party that joined an empty
 * queue measures how fast staff seat, not how long the venue stood idle. A recent average per row
 * (`venue_pace.service_ms`), blended with the same hour of the week's history
 * (`venue_pace_slots`). The fit (fit.ts) then calibrates it against the waits.
 */

/** Weight of the newest service interval in the recent average (chosen on the training scenarios of bench/estimate.bench.ts). */
const SERVICE_ALPHA = 0.15;
/** Weight of the newest interval in an hour-of-week average, across the weeks (chosen: about ten weeks remembered). */
const SLOT_ALPHA = 0.1;
/** A longer interval (the venue closed in between) says nothing about how fast it seats (field figure: a service's length). */
const MAX_INTERVAL_MS = 3 * 60 * 60_000;
/** The recent average counts less the longer ago the last seating was: its weight e^(−age / this) (chosen: a table's turn, about). */
const STALE_MS = 45 * 60_000;
/** How many samples the recent pace and an hour's history are worth at most, against each other (chosen on the training scenarios of bench/estimate.bench.ts). */
const RECENT_WEIGHT_CAP = 12;
const HISTORY_WEIGHT_CAP = 6;

/** Hour of the week, 0 = Sunday 00:00-01:00 UTC. */
export function slotOf(t: number): number {
  const d = new Date(t);
  return d.getUTCDay() * 24 + d.getUTCHours();
}

/** The interval a seating measures (module comment), or undefined when it says nothing. */
export function serviceInterval(previous: PaceRow | undefined, joinedAt: number, seatedAt: number): number | undefined {
  const since = Math.max(previous?.last_seated_at ?? 0, joinedAt);
  const interval = seatedAt - since;
  return interval >= 0 && interval <= MAX_INTERVAL_MS ? interval : undefined;
}

/** The recent average after a seating: its new service interval and sample count (the row is being written). */
export function learnService(row: PaceRow, interval: number | undefined): void {
  if (interval === undefined) return;
  row.service_ms = row.samples === 0 ? interval : SERVICE_ALPHA * interval + (1 - SERVICE_ALPHA) * row.service_ms;
  row.samples += 1;
}

/** The hour-of-week history after a seating; undefined when the seating measured nothing. */
export function nextSlot(
  previous: PaceSlotRow | undefined,
  venueId: string,
  band: number,
  before: PaceRow | undefined,
  seated: Pick<EntryRow, 'created_at'>,
  seatedAt: number,
): PaceSlotRow | undefined {
  const interval = serviceInterval(before, seated.created_at, seatedAt);
  if (interval === undefined) return undefined;
  if (!previous) return { venue_id: venueId, band, slot: slotOf(seatedAt), service_ms: interval, samples: 1 };
  return { ...previous, service_ms: SLOT_ALPHA * interval + (1 - SLOT_ALPHA) * previous.service_ms, samples: previous.samples + 1 };
}

/** How long one seating takes now, minutes: the recent pace and this hour's history, each by its weight. */
export function serviceMinutes(recent: PaceRow | undefined, history: PaceSlotRow | undefined, at: number): number | undefined {
  let weight = 0;
  let sum = 0;
  if (recent && recent.samples > 0) {
    const w = Math.min(recent.samples, RECENT_WEIGHT_CAP) * Math.exp(-Math.max(0, at - recent.last_seated_at) / STALE_MS);
    weight += w;
    sum += w * recent.service_ms;
  }
  if (history && history.samples > 0) {
    const w = Math.min(history.samples, HISTORY_WEIGHT_CAP);
    weight += w;
    sum += w * history.service_ms;
  }
  return weight > 0 ? sum / weight / 60_000 : undefined;
}
