import type { EntryRow, PaceRow, PaceSlotRow } from '../../db/types.js';

/**
 * The wait estimator (docs/decisions/022-wait-estimates.md, docs/product.md §4).
 *
 * A restaurant seats its waiting parties one after another: what a quote needs is how long one
 * seating takes while parties wait (the service interval), how many seatings stand between a
 * party and its table (the parties ahead and those already called), and how far such quotes have
 * been off at this venue. The interval of a seating is the time since the previous seating or
 * since the party joined, whichever is later: a party that joined an empty queue measures how
 * fast staff seat, not how long the venue stood idle (the old average of gaps between seatings
 * quoted a slow afternoon's idle hours to its next party).
 *
 * Everything is learned on the seat, O(1) per seating, into one row per venue and band and one
 * per hour of the week; a quote reads those rows and the counts the position read has anyway, so
 * it costs the same at any queue length and never scans history.
 */

/** Band key for the whole venue (basic mode). */
export const VENUE_WIDE_BAND = -1;
/** Weight of the newest service interval in the recent average. */
const SERVICE_ALPHA = 0.15;
/** Weight of the newest interval in an hour-of-week average, across the weeks. */
const SLOT_ALPHA = 0.1;
/** A longer interval (the venue closed in between) says nothing about how fast it seats. */
const MAX_INTERVAL_MS = 3 * 60 * 60_000;
/** The recent average counts less the longer ago the last seating was (minutes of half-life, roughly). */
const STALE_MS = 45 * 60_000;
/** How many samples the recent pace and an hour's history are worth at most, against each other. */
const RECENT_WEIGHT_CAP = 12;
const HISTORY_WEIGHT_CAP = 6;
/** How fast the calibration follows quotes that turned out long or short. */
const BIAS_RATE = 0.04;
const SPREAD_RATE = 0.02;
/** The range's spreads are relative to the quote plus this margin (short waits vary by minutes). */
const MARGIN_MINUTES = 5;
/** The range aims to hold 80% of parties: the 10th to the 90th percentile of the quote's error. */
const LOW_QUANTILE = 0.1;
const HIGH_QUANTILE = 0.9;
/** Before a venue has calibrated its own: spreads that hold most waits of a restaurant. */
const DEFAULT_SPREAD_LOW = -0.35;
const DEFAULT_SPREAD_HIGH = 0.45;
/** Quotes a band must have learned from before its own calibration replaces the venue's. */
const MIN_BAND_QUOTES = 20;

/** The estimator's state of one venue, as a quote reads it: its rows and this hour's history. */
export interface PaceBook {
  paces: readonly PaceRow[];
  /** The venue's hour-of-week rows for `slot` (one per band that has history). */
  slots: readonly PaceSlotRow[];
  slot: number;
  /** When the book was read: the recent pace ages from its last seating to here. */
  at: number;
}

export const EMPTY_BOOK: PaceBook = Object.freeze({ paces: [], slots: [], slot: 0, at: 0 });

export interface Estimate {
  /** Minutes, the central quote. */
  time: number;
  low: number;
  high: number;
}

/** Hour of the week, 0 = Sunday 00:00-01:00 UTC. */
export function slotOf(t: number): number {
  const d = new Date(t);
  return d.getUTCDay() * 24 + d.getUTCHours();
}

export function freshPace(venueId: string, band: number): PaceRow {
  return { venue_id: venueId, band, service_ms: 0, last_seated_at: 0, samples: 0, bias: 0, spread_low: 0, spread_high: 0, quotes: 0 };
}

/** The interval a seating measures (module comment), or undefined when it says nothing. */
export function serviceInterval(previous: PaceRow | undefined, joinedAt: number, seatedAt: number): number | undefined {
  const since = Math.max(previous?.last_seated_at ?? 0, joinedAt);
  const interval = seatedAt - since;
  return interval >= 0 && interval <= MAX_INTERVAL_MS ? interval : undefined;
}

/** What a seated party teaches one row: the service interval, and how its quote turned out. */
export function nextPace(
  previous: PaceRow | undefined,
  venueId: string,
  band: number,
  seated: Pick<EntryRow, 'created_at' | 'quoted_minutes'>,
  seatedAt: number,
): PaceRow {
  const row = { ...(previous ?? freshPace(venueId, band)) };
  const interval = serviceInterval(previous, seated.created_at, seatedAt);
  if (interval !== undefined) {
    row.service_ms = row.samples === 0 ? interval : SERVICE_ALPHA * interval + (1 - SERVICE_ALPHA) * row.service_ms;
    row.samples += 1;
  }
  row.last_seated_at = Math.max(row.last_seated_at, seatedAt);
  if (seated.quoted_minutes !== null) {
    const actual = (seatedAt - seated.created_at) / 60_000;
    const quoted = seated.quoted_minutes;
    if (row.quotes === 0) {
      row.spread_low = DEFAULT_SPREAD_LOW;
      row.spread_high = DEFAULT_SPREAD_HIGH;
    }
    // The quote already carried the bias: this follows what is still off (an integrator).
    const off = Math.log((actual + 2) / (quoted + 2));
    row.bias += BIAS_RATE * Math.max(-1.5, Math.min(1.5, off));
    // Online quantiles of the relative error (a stochastic-gradient step toward each percentile).
    const r = (actual - quoted) / (quoted + MARGIN_MINUTES);
    row.spread_low += SPREAD_RATE * (r < row.spread_low ? LOW_QUANTILE - 1 : LOW_QUANTILE);
    row.spread_high += SPREAD_RATE * (r < row.spread_high ? HIGH_QUANTILE - 1 : HIGH_QUANTILE);
    row.quotes += 1;
  }
  return row;
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

/** How long one seating takes now: the recent pace and this hour's history, each by its weight. */
function serviceMs(recent: PaceRow | undefined, history: PaceSlotRow | undefined, at: number): number | undefined {
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
  return weight > 0 ? sum / weight : undefined;
}

const rowOf = (book: PaceBook, band: number) => book.paces.find((p) => p.band === band);
const slotRowOf = (book: PaceBook, band: number) => book.slots.find((s) => s.band === band);

/**
 * The quote of a waiting party: `ahead` waiting parties before it and `called` parties called and
 * not yet seated (both counted in its band in advanced mode, in the whole venue otherwise).
 * Null when the venue has neither a pace nor history yet (docs/product.md §4: show nothing).
 */
export function estimate(book: PaceBook, band: number, advanced: boolean, ahead: number, called: number): Estimate | null {
  const venue = rowOf(book, VENUE_WIDE_BAND);
  const own = band === VENUE_WIDE_BAND ? undefined : rowOf(book, band);
  // Advanced mode seats each band at its own tables: its own pace once it has one.
  const ownService = advanced ? serviceMs(own, slotRowOf(book, band), book.at) : undefined;
  const service = ownService ?? serviceMs(venue, slotRowOf(book, VENUE_WIDE_BAND), book.at);
  if (service === undefined) return null;
  // In basic mode too, a band's own calibration learns what party size does to the wait.
  const calibration = own && own.quotes >= MIN_BAND_QUOTES ? own : venue && venue.quotes > 0 ? venue : undefined;
  const raw = ((ahead + called + 1) * service) / 60_000;
  const central = raw * Math.exp(calibration?.bias ?? 0);
  const spreadLow = calibration?.spread_low ?? DEFAULT_SPREAD_LOW;
  const spreadHigh = calibration?.spread_high ?? DEFAULT_SPREAD_HIGH;
  return rangeOf(central, spreadLow, spreadHigh);
}

/** Whole minutes as a diner reads them: at least 1, the range around the quote, rounded outwards. */
export function rangeOf(central: number, spreadLow: number, spreadHigh: number): Estimate {
  const time = Math.max(1, Math.round(central));
  const low = Math.max(0, Math.min(time, Math.floor(central + Math.min(0, spreadLow) * (central + MARGIN_MINUTES))));
  const high = Math.max(time, Math.ceil(central + Math.max(0, spreadHigh) * (central + MARGIN_MINUTES)));
  return { time, low, high };
}
