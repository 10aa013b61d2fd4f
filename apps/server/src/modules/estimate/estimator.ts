import type { EntryRow, PaceRow, PaceSlotRow } from '../../db/types.js';
import type { FloorBook } from './floor.js';
import { DEFAULT_SPREAD_HIGH, DEFAULT_SPREAD_LOW, MIN_RESIDUALS, rangeOf, residualOf, spreadOf, withResidual } from './calibration.js';
import { departureChances, freeingTime, freeingTimes } from './occupancy.js';

export { rangeOf } from './calibration.js';

/**
 * The wait estimator (docs/decisions/022-wait-estimates.md, docs/product.md §4).
 *
 * Three forecasts of a waiting party's wait, each learned from the venue's own seatings, kept per
 * band of party sizes (tables come in sizes: a party of eight waits for one of the few big
 * tables, whatever the mode) and for the whole venue:
 *
 * 1. The pace. A venue seats its waiting parties one after another: how long one seating takes
 *    while parties wait (the service interval) times how many tables must free before a party's:
 *    one for each party waiting ahead of it, and its own. A party already called holds a table
 *    that has freed (docs/product.md §4.2): its seating is near, the `a` of the fit below, not a
 *    service interval more. The interval of a seating is the time since the previous seating or
 *    since the party joined, whichever is later: a party that joined an empty
 *    queue measures how fast staff seat, not how long the venue stood idle (the old average of
 *    gaps between seatings quoted a slow afternoon's idle hours to its next party). It is blended
 *    with the same hour of the week's history, and calibrated by a weighted least-squares fit,
 *    wait = a + b × forecast, newer parties weighing more: `a` learns the time from the call to
 *    the table that every party waits, `b` how the pace over- or under-states this venue.
 * 2. The turn cycle. A table frees about one turn after its party sat down; with `c` tables, the
 *    party with `j` parties before it gets the table of the party seated `c - j` seatings ago. The
 *    venue's recent seat times are kept, and each candidate table count keeps the turn it implies
 *    (an average of wait minus forecast) and how far its forecasts have been off; the best one
 *    speaks. This sees what the pace cannot: after a burst of seatings the next table is far off.
 * 3. The occupancy (occupancy.ts). The same seat times as the tables' occupants: each leaves after
 *    a log-normal turn given its age, and the party with `j` parties before it waits for the
 *    `j + 1`-th to leave, plus the minutes from a free table to a seated party. Turns vary: the
 *    first table to free is rarely the oldest occupant's. Per candidate table count, as the cycle.
 *    A band's row also forecasts it for its size classes (CLASS_RANGES): the occupants of the
 *    tables its bands share and only the parties before it in those bands; of its own and its
 *    classes', the one off least lately speaks.
 *
 * The quote weighs the three by how far each has been off lately; the range is the 10th to 90th
 * percentile of the quote's error, tracked online. Everything is learned on the seat, O(1) per
 * seating, into one row per venue and band and one per hour of the week; a quote reads those rows
 * and the counts the position read has anyway, so it costs the same at any queue length and never
 * scans history.
 */

/** Band key for the whole venue. */
export const VENUE_WIDE_BAND = -1;

/** Weight of the newest service interval in the recent average. */
const SERVICE_ALPHA = 0.15;
/** Weight of the newest interval in an hour-of-week average, across the weeks. */
const SLOT_ALPHA = 0.1;
/** A longer interval (the venue closed in between) says nothing about how fast it seats. */
const MAX_INTERVAL_MS = 3 * 60 * 60_000;
/** The recent average counts less the longer ago the last seating was. */
const STALE_MS = 45 * 60_000;
/** How many samples the recent pace and an hour's history are worth at most, against each other. */
const RECENT_WEIGHT_CAP = 12;
const HISTORY_WEIGHT_CAP = 6;
/** Each seated party's weight in the fit decays by this factor per newer party (about 100 remembered). */
const FIT_MEMORY = 0.99;
/** Pulls the slope toward 1 (the pace taken at its word) while the fit has seen little: minutes². */
const SLOPE_PRIOR = 400;
/** A band's own forecasts take over from the venue's after this many seatings (its fit, when it has one). */
const MIN_BAND_SAMPLES = 8;
/** The table counts the turn cycle tries, and how many seat times it keeps. */
export const CYCLE_TABLES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 24] as const;
const CYCLE_SEATS = 32;
/** How fast a candidate's turn and error follow new seatings. */
const CYCLE_TURN_RATE = 0.05;
const CYCLE_ERROR_RATE = 0.03;
/** Seatings a candidate must have been scored on before it may speak. */
const MIN_CYCLE_SCORED = 10;
/** The short wait the cycle never goes under (a quantile of the waits), and how fast it moves. */
const FLOOR_QUANTILE = 0.2;
const FLOOR_STEP = 0.5;
/** A seat time older than this (an earlier service) means a free table: the forecast is only the floor. */
const CYCLE_HORIZON_MINUTES = 240;
/** The occupancy forecast's turn before it has learned one (a restaurant's, minutes), its bounds, and how fast it moves. */
const OCC_PRIOR_TURN = 60;
const OCC_MIN_TURN = 10;
const OCC_MAX_TURN = 300;
const OCC_TURN_RATE = 0.03;
/** Its latency learns from parties whose table was free (the forecast before latency about 0): weight e^(-x / this). */
const OCC_FREE_MINUTES = 5;
/**
 * The size classes of a band's class occupancy forecasts (docs/decisions/022-wait-estimates.md),
 * as ranges of bands relative to the party's, [from, to]: a party waits for a table its size fits,
 * held by and wanted by the parties of the bands that fit the same tables. Where a venue seats a
 * party only at its band's tables (advanced mode) that is the band alone (the band's own
 * occupancy forecast); where a party may take a table one size bigger (basic mode), its band and
 * the larger ones [0, +∞), or also the band below [-1, +∞). Each class is a forecast of its own;
 * the one off least lately speaks.
 */
export const CLASS_RANGES: readonly (readonly [number, number])[] = [
  [0, Infinity],
  [-1, Infinity],
];
/** How many seat times a class's occupants are drawn from (the last ones of its bands' rows). */
const CLASS_SEATS = 24;

/** An occupancy forecast's learned state (occupancyInputs): its turn's median, the call-to-table minutes, per candidate its error. */
export interface OccModel {
  occTurn?: number;
  occLatency?: number | null;
  occError?: (number | null)[];
  occScored?: number[];
}

/** A row's turn-cycle model: seat times (ms, oldest first), per candidate its turn and error (minutes). */
export interface Cycle extends OccModel {
  seats: number[];
  turn: (number | null)[];
  error: (number | null)[];
  scored: number[];
  /** How far the pace's calibrated forecast has been off lately, minutes. */
  paceError: number | null;
  /** A low quantile of the waits: no party waits less than this much for long. */
  floor: number;
  /** A band's row only: its class occupancy forecasts, one per range of CLASS_RANGES (classesOf). */
  cls?: (OccModel | null)[];
  /** The scores of this row's quotes against the waits, newest last (calibration.ts): the range's spreads. */
  residuals?: number[];
}

/** What a quote was made from, kept on the entry so the seat can teach each forecast. */
export interface QuoteBasis {
  /** The pace's forecast and the cycle's per candidate, for the band and for the venue (minutes). */
  band: ForecastInputs | null;
  venue: ForecastInputs | null;
  /** The estimator's own quote, when the entry was given the floor's (floor.ts): its range learns from its own. */
  own?: number;
}

interface ForecastInputs {
  pace: number | null;
  cycle: (number | null)[];
  /** The occupancy forecast per candidate before its latency: when the party's table frees (minutes from the join). */
  occ?: (number | null)[];
  /** Parties before this one (ahead and called): a candidate learns its turn only within one turn. */
  before: number;
  /** A band's only: its class occupancy forecasts per range (CLASS_RANGES), per candidate, before their latency. */
  cls?: ((number | null)[] | null)[];
}

/** The estimator's state of one venue, as a quote reads it: its rows and this hour's history. */
export interface PaceBook {
  paces: readonly PaceRow[];
  /** The venue's hour-of-week rows for `slot` (one per band that has history). */
  slots: readonly PaceSlotRow[];
  slot: number;
  /** When the book was read: the recent pace ages from its last seating to here. */
  at: number;
  /** The venue's floor, when it lists its tables and the floor has learned enough (floor.ts). */
  floor?: FloorBook;
}

export const EMPTY_BOOK: PaceBook = Object.freeze({ paces: [], slots: [], slot: 0, at: 0 });

export interface Estimate {
  /** Minutes, the central quote. */
  time: number;
  low: number;
  high: number;
  /** What it was made from (kept on the entry: the seat teaches the estimator with it); with `withBasis` only. */
  basis?: QuoteBasis;
}

/** Hour of the week, 0 = Sunday 00:00-01:00 UTC. */
export function slotOf(t: number): number {
  const d = new Date(t);
  return d.getUTCDay() * 24 + d.getUTCHours();
}

export function freshPace(venueId: string, band: number): PaceRow {
  return {
    venue_id: venueId,
    band,
    service_ms: 0,
    last_seated_at: 0,
    samples: 0,
    fit_w: 0,
    fit_x: 0,
    fit_xx: 0,
    fit_y: 0,
    fit_xy: 0,
    spread_low: 0,
    spread_high: 0,
    quotes: 0,
    cycle: null,
  };
}

const freshCycle = (): Cycle => ({
  seats: [],
  turn: CYCLE_TABLES.map(() => null),
  error: CYCLE_TABLES.map(() => null),
  scored: CYCLE_TABLES.map(() => 0),
  paceError: null,
  floor: 0,
});

/** Parsed once per row object: a kept book's rows serve many quotes (the fan-out places every diner). */
const parsedCycles = new WeakMap<PaceRow, Cycle>();
export function cycleOf(row: PaceRow | undefined): Cycle | undefined {
  if (!row || row.cycle === null) return undefined;
  let cycle = parsedCycles.get(row);
  if (!cycle) {
    try {
      cycle = JSON.parse(row.cycle) as Cycle;
    } catch {
      return undefined;
    }
    if (!Array.isArray(cycle.seats) || cycle.turn?.length !== CYCLE_TABLES.length) return undefined;
    parsedCycles.set(row, cycle);
  }
  return cycle;
}

export function parseBasis(text: string | null): QuoteBasis | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as QuoteBasis;
  } catch {
    return null;
  }
}

/** The interval a seating measures (module comment), or undefined when it says nothing. */
export function serviceInterval(previous: PaceRow | undefined, joinedAt: number, seatedAt: number): number | undefined {
  const since = Math.max(previous?.last_seated_at ?? 0, joinedAt);
  const interval = seatedAt - since;
  return interval >= 0 && interval <= MAX_INTERVAL_MS ? interval : undefined;
}

type Seated = Pick<EntryRow, 'created_at' | 'quoted_minutes' | 'quote_basis'>;

/** What a seated party teaches one row: the service interval, both forecasts, how its quote turned out. */
export function nextPace(previous: PaceRow | undefined, venueId: string, band: number, seated: Seated, seatedAt: number): PaceRow {
  const row = { ...(previous ?? freshPace(venueId, band)) };
  const interval = serviceInterval(previous, seated.created_at, seatedAt);
  if (interval !== undefined) {
    row.service_ms = row.samples === 0 ? interval : SERVICE_ALPHA * interval + (1 - SERVICE_ALPHA) * row.service_ms;
    row.samples += 1;
  }
  row.last_seated_at = Math.max(row.last_seated_at, seatedAt);
  const actual = (seatedAt - seated.created_at) / 60_000;
  const basis = parseBasis(seated.quote_basis);
  const given = band === VENUE_WIDE_BAND ? basis?.venue : basis?.band;
  // Written by this server at join; a row from another version that does not fit teaches nothing.
  const inputs = given && Array.isArray(given.cycle) && typeof given.before === 'number' ? given : undefined;
  const cycle = structuredClone(cycleOf(previous) ?? freshCycle());
  if (inputs) learnForecasts(row, cycle, inputs, actual);
  // A low quantile of the waits (a stochastic-gradient step): the cycle's floor.
  cycle.floor = Math.max(0, cycle.floor + FLOOR_STEP * (actual < cycle.floor ? FLOOR_QUANTILE - 1 : FLOOR_QUANTILE));
  cycle.seats.push(seatedAt);
  if (cycle.seats.length > CYCLE_SEATS) cycle.seats.splice(0, cycle.seats.length - CYCLE_SEATS);
  const own = typeof basis?.own === 'number' ? basis.own : seated.quoted_minutes;
  if (own !== null) learnSpread(row, cycle, own, actual);
  row.cycle = JSON.stringify(cycle);
  return row;
}

/**
 * The quote's range learns from how it turned out (calibration.ts): the score joins the row's
 * ring, and the row's spreads become the ring's conformal quantiles once it holds enough (a
 * row stored before the ring keeps its old spreads until then).
 */
function learnSpread(row: PaceRow, cycle: Cycle, quoted: number, actual: number): void {
  cycle.residuals = withResidual(cycle.residuals, residualOf(quoted, actual));
  const spread = spreadOf(cycle.residuals);
  if (spread) {
    row.spread_low = spread.low;
    row.spread_high = spread.high;
  }
  row.quotes += 1;
}

/** Scores each forecast made at join against the wait, then moves the fit and each candidate's turn. */
function learnForecasts(row: PaceRow, cycle: Cycle, inputs: ForecastInputs, actual: number): void {
  const x = inputs.pace;
  if (x !== null) {
    // Solved afresh: this row object is still being written.
    const fit = solveFit(row);
    const before = fit ? Math.max(0, fit.a + fit.b * x) : x;
    cycle.paceError = ema(cycle.paceError, Math.abs(actual - before), CYCLE_ERROR_RATE);
    row.fit_w = FIT_MEMORY * row.fit_w + 1;
    row.fit_x = FIT_MEMORY * row.fit_x + x;
    row.fit_xx = FIT_MEMORY * row.fit_xx + x * x;
    row.fit_y = FIT_MEMORY * row.fit_y + actual;
    row.fit_xy = FIT_MEMORY * row.fit_xy + x * actual;
  }
  inputs.cycle.forEach((xc, i) => {
    if (xc === null || typeof xc !== 'number' || i >= CYCLE_TABLES.length) return;
    const turn = cycle.turn[i] ?? null;
    if (turn !== null) {
      cycle.error[i] = ema(cycle.error[i] ?? null, Math.abs(actual - Math.max(cycle.floor, xc + turn)), CYCLE_ERROR_RATE);
      cycle.scored[i] = (cycle.scored[i] ?? 0) + 1;
    }
    // A table seen free says nothing about the turn (its party left before this one came: the
    // forecast sat on the floor), nor does a forecast a whole cycle away.
    const free = xc <= -CYCLE_HORIZON_MINUTES || (turn !== null && xc + turn <= cycle.floor);
    if (!free && inputs.before < CYCLE_TABLES[i]!) cycle.turn[i] = ema(turn, actual - xc, CYCLE_TURN_RATE);
  });
  if (Array.isArray(inputs.occ)) learnOccupancy(cycle, cycle.floor, inputs.occ, actual);
  if (Array.isArray(inputs.cls)) {
    const models = (cycle.cls ??= CLASS_RANGES.map(() => null));
    CLASS_RANGES.forEach((_, r) => {
      const occ = inputs.cls![r];
      if (!Array.isArray(occ)) return;
      learnOccupancy((models[r] ??= {}), cycle.floor, occ, actual);
    });
  }
}

/**
 * The occupancy forecast learns three things from a seated party: each candidate's error; the
 * latency (call to table) from parties whose table was free at their join; the turn's median from
 * the others, nudged up when the party waited longer than the best candidate said, down when less.
 */
function learnOccupancy(cycle: OccModel, floor: number, occ: readonly unknown[], actual: number): void {
  const latency = occLatencyOf(cycle, floor);
  const error = (cycle.occError ??= CYCLE_TABLES.map(() => null));
  const scored = (cycle.occScored ??= CYCLE_TABLES.map(() => 0));
  const reference = bestOccupancy(cycle);
  occ.forEach((x, i) => {
    if (typeof x !== 'number' || i >= CYCLE_TABLES.length) return;
    error[i] = ema(error[i] ?? null, Math.abs(actual - (x + latency)), CYCLE_ERROR_RATE);
    scored[i] = (scored[i] ?? 0) + 1;
  });
  // Before any candidate has earned it, the middle one teaches the latency and the turn.
  const x = occ[reference >= 0 ? reference : Math.floor(CYCLE_TABLES.length / 2)];
  if (typeof x !== 'number') return;
  const free = Math.exp(-x / OCC_FREE_MINUTES);
  cycle.occLatency = latency + CYCLE_TURN_RATE * free * (actual - x - latency);
  if (x > 1) {
    const miss = Math.max(-1, Math.min(1, (actual - latency - x) / (x + 10)));
    const turn = (cycle.occTurn ?? OCC_PRIOR_TURN) * Math.exp(OCC_TURN_RATE * (1 - free) * miss);
    cycle.occTurn = Math.max(OCC_MIN_TURN, Math.min(OCC_MAX_TURN, turn));
  }
}

/** The minutes from a free table to a seated party: learned, or the floor of the waits until then. */
const occLatencyOf = (model: OccModel, floor: number): number => model.occLatency ?? floor;

const ema = (previous: number | null, value: number, rate: number) => (previous === null ? value : previous + rate * (value - previous));

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
function serviceMinutes(recent: PaceRow | undefined, history: PaceSlotRow | undefined, at: number): number | undefined {
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

/** The calibrated wait for a pace forecast `x`: the fit's a + b·x, the slope pulled toward 1 while data is thin. */
export function calibrated(row: PaceRow | undefined, x: number): number {
  const fit = row ? fitOf(row) : null;
  return fit ? Math.max(0, fit.a + fit.b * x) : x;
}

/** The fit's line of a row, solved once per row object (a kept book's rows serve many quotes). */
const fits = new WeakMap<PaceRow, { a: number; b: number } | null>();
function fitOf(row: PaceRow): { a: number; b: number } | null {
  let fit = fits.get(row);
  if (fit === undefined) {
    fit = solveFit(row);
    fits.set(row, fit);
  }
  return fit;
}

function solveFit(row: PaceRow): { a: number; b: number } | null {
  if (row.fit_w < 1) return null;
  // Weighted least squares with a ridge on (b - 1): [w, Σx; Σx, Σx² + ρ] [a; b] = [Σy; Σxy + ρ].
  const { fit_w: w, fit_x: sx, fit_xx: sxx, fit_y: sy, fit_xy: sxy } = row;
  const det = w * (sxx + SLOPE_PRIOR) - sx * sx;
  if (!(det > 0)) return null;
  const b = (w * (sxy + SLOPE_PRIOR) - sx * sy) / det;
  return { a: (sy - b * sx) / w, b: Math.max(0, b) };
}

/** A book's rows by band and each band's service interval at the book's time, worked out once per book. */
interface Prepared {
  rows: Map<number, PaceRow>;
  service: Map<number, number | undefined>;
  /** The largest band with a row, and per band its size classes' bands and occupants (classesOf). */
  bands: number;
  classes: Map<number, ({ lo: number; hi: number; seats: number[] } | null)[]>;
}
const prepared = new WeakMap<PaceBook, Prepared>();
function prepare(book: PaceBook): Prepared {
  let p = prepared.get(book);
  if (!p) {
    const rows = new Map(book.paces.map((row) => [row.band, row]));
    p = { rows, service: new Map(), bands: Math.max(0, ...rows.keys()), classes: new Map() };
    prepared.set(book, p);
  }
  return p;
}

const rowOf = (book: PaceBook, band: number) => prepare(book).rows.get(band);
function serviceOf(book: PaceBook, band: number): number | undefined {
  const p = prepare(book);
  if (p.service.has(band)) return p.service.get(band);
  const service = serviceMinutes(
    p.rows.get(band),
    book.slots.find((s) => s.band === band),
    book.at,
  );
  p.service.set(band, service);
  return service;
}

/** What stands before a party: waiting parties ahead and parties called, in the venue and in its band. */
export interface Before {
  ahead: number;
  called: number;
  aheadInBand: number;
  calledInBand: number;
  /** Waiting parties ahead and parties called, per band (index: band): the class forecasts count their classes' from these. */
  aheadByBand?: readonly number[];
  calledByBand?: readonly number[];
}

/**
 * The cycle's forecast for a party with `before` parties before it by candidate `i` (module
 * comment), minutes before the candidate's turn is added: the seat time of the party whose table
 * it will get, plus a whole turn (without the call's own minutes, the floor) for each cycle of all
 * tables beyond the first. Null when the candidate cannot say.
 */
function cycleInput(cycle: Cycle | undefined, i: number, before: number, at: number): number | null {
  const tables = CYCLE_TABLES[i]!;
  const seats = cycle?.seats ?? [];
  if (seats.length < tables) return null;
  const rounds = Math.floor(before / tables);
  const turn = cycle?.turn[i] ?? null;
  if (rounds > 0 && turn === null) return null;
  const pick = seats[seats.length - tables + (before % tables)]!;
  const since = Math.max(-CYCLE_HORIZON_MINUTES, (pick - at) / 60_000);
  return since + (rounds > 0 ? rounds * Math.max(1, turn! - cycle!.floor) : 0);
}

/** Every candidate's forecast: what a join keeps so the seat can score them all. */
export const cycleInputs = (cycle: Cycle | undefined, before: number, at: number): (number | null)[] =>
  CYCLE_TABLES.map((_, i) => cycleInput(cycle, i, before, at));

/** The candidate with the smallest recent error among those scored enough, -1 while none; kept per parsed cycle. */
const bestOfCycle = new WeakMap<Cycle, number>();
function bestCandidate(cycle: Cycle): number {
  let best = bestOfCycle.get(cycle);
  if (best !== undefined) return best;
  best = -1;
  for (let i = 0; i < CYCLE_TABLES.length; i++) {
    const error = cycle.error[i];
    if (cycle.turn[i] === null || cycle.turn[i] === undefined || error === null || error === undefined) continue;
    if ((cycle.scored[i] ?? 0) < MIN_CYCLE_SCORED) continue;
    if (best < 0 || error < cycle.error[best]!) best = i;
  }
  bestOfCycle.set(cycle, best);
  return best;
}

/** The best candidate's forecast, with its recent error; undefined while none has earned it. */
function cycleForecast(cycle: Cycle | undefined, before: number, at: number): { value: number; error: number } | undefined {
  if (!cycle) return undefined;
  const i = bestCandidate(cycle);
  if (i < 0) return undefined;
  const x = cycleInput(cycle, i, before, at);
  return x === null ? undefined : { value: Math.max(cycle.floor, x + cycle.turn[i]!), error: cycle.error[i]! };
}

/**
 * The occupancy forecast of candidate `i` (occupancy.ts): the last `c` of `seats` are the tables'
 * occupants, and the party with `before` parties before it waits for the `before + 1`-th of them
 * to leave; minutes from `at`, before the latency. Null while there are fewer seatings than the
 * candidate has tables. `times` (every departure's, worked out once) serves reads.
 */
function occupancyInput(
  model: OccModel,
  floor: number,
  i: number,
  before: number,
  chances: readonly Float64Array[],
  times?: readonly number[],
): number | null {
  const tables = CYCLE_TABLES[i]!;
  if (chances.length < tables) return null;
  const all = times ?? freeingTimes(chances.slice(chances.length - tables), Math.min(before + 1, tables));
  return freeingTime(all, tables, before, model.occTurn ?? OCC_PRIOR_TURN, occLatencyOf(model, floor));
}

/** The departure chances of the last `count` of `seats` at `at` (occupancy.ts). */
function chancesOf(seats: readonly number[], turn: number, count: number, at: number): Float64Array[] {
  const ages = seats.slice(Math.max(0, seats.length - count)).map((seat) => Math.max(0, (at - seat) / 60_000));
  return departureChances(ages, turn);
}

/** Every candidate's occupancy forecast from these occupants (a row's own seats by default): what a join keeps so the seat can score them all. */
export function occupancyInputs(
  cycle: Cycle | undefined,
  before: number,
  at: number,
  model: OccModel = cycle ?? {},
  seats: readonly number[] = cycle?.seats ?? [],
): (number | null)[] {
  const m = model;
  const chances = chancesOf(seats, m.occTurn ?? OCC_PRIOR_TURN, CYCLE_TABLES[CYCLE_TABLES.length - 1]!, at);
  return CYCLE_TABLES.map((_, i) => occupancyInput(m, cycle?.floor ?? 0, i, before, chances));
}

/** The occupancy candidate with the smallest recent error among those scored enough, -1 while none. */
const bestOccOfModel = new WeakMap<OccModel, number>();
function bestOccupancy(model: OccModel): number {
  let best = bestOccOfModel.get(model);
  if (best !== undefined) return best;
  best = -1;
  for (let i = 0; i < CYCLE_TABLES.length; i++) {
    const error = model.occError?.[i];
    if (error === null || error === undefined || (model.occScored?.[i] ?? 0) < MIN_CYCLE_SCORED) continue;
    if (best < 0 || error < model.occError![best]!) best = i;
  }
  bestOccOfModel.set(model, best);
  return best;
}

/** Every departure's time for a read at `at` (the best candidate's), kept per parsed model for the last `at` and occupants: a fan-out asks once. */
const departures = new WeakMap<OccModel, { at: number; seats: readonly number[]; chances: Float64Array[]; times: number[] }>();
function occupancyForecast(
  model: OccModel | null | undefined,
  floor: number,
  seats: readonly number[],
  before: number,
  at: number,
): { value: number; error: number } | undefined {
  if (!model) return undefined;
  const i = bestOccupancy(model);
  if (i < 0) return undefined;
  const tables = CYCLE_TABLES[i]!;
  if (seats.length < tables) return undefined;
  let kept = departures.get(model);
  if (!kept || kept.at !== at || kept.seats !== seats) {
    const chances = chancesOf(seats, model.occTurn ?? OCC_PRIOR_TURN, tables, at);
    kept = { at, seats, chances, times: freeingTimes(chances, tables) };
    departures.set(model, kept);
  }
  const x = occupancyInput(model, floor, i, before, kept.chances, kept.times);
  return x === null ? undefined : { value: x + occLatencyOf(model, floor), error: model.occError![i]! };
}

/** A class of a band: its occupants (the last seat times of its bands' rows, oldest first) and the parties before the party in its bands. */
interface SizeClass {
  seats: readonly number[];
  before: number;
}

/**
 * The size classes of a party of `band` (CLASS_RANGES), with what stands before it in each: null
 * for a range that is the band alone (its own forecast) or the same bands as an earlier one, and
 * for all of them when the counts per band are not known. The occupants are worked out once per
 * book and band (a fan-out places every diner with one book); the counts are the party's.
 */
function classesOf(book: PaceBook, band: number, before: Before): (SizeClass | null)[] | undefined {
  const ahead = before.aheadByBand;
  const called = before.calledByBand;
  if (!ahead || !called) return undefined;
  const p = prepare(book);
  let ranges = p.classes.get(band);
  if (!ranges) {
    const seen = new Set<string>([`${band}:${band}`]);
    ranges = CLASS_RANGES.map(([from, to]) => {
      const lo = Math.max(0, band + from);
      const hi = Math.min(p.bands, band + to);
      const key = `${lo}:${hi}`;
      if (seen.has(key)) return null;
      seen.add(key);
      const merged: number[] = [];
      for (let b = lo; b <= hi; b++) merged.push(...(cycleOf(p.rows.get(b))?.seats ?? []));
      return { lo, hi, seats: merged.sort((x, y) => x - y).slice(-CLASS_SEATS) };
    });
    p.classes.set(band, ranges);
  }
  return ranges.map((range) => {
    if (!range) return null;
    let count = 0;
    for (let b = range.lo; b <= range.hi; b++) count += (ahead[b] ?? 0) + (called[b] ?? 0);
    return { seats: range.seats, before: count };
  });
}

/**
 * One row's quote: the pace's calibrated forecast, the cycle's, the occupancy's and, for a band,
 * its class occupancy forecasts (`classSeats`), weighed by how far each has been off.
 */
function forecastOf(row: PaceRow | undefined, pace: number, before: number, at: number, classes?: readonly (SizeClass | null)[]): number {
  const calibratedPace = calibrated(row, pace);
  const cycle = cycleOf(row);
  if (cycle?.paceError === null || cycle?.paceError === undefined) return calibratedPace;
  let weight = 1 / Math.max(0.5, cycle.paceError) ** 2;
  let sum = weight * calibratedPace;
  // The occupancy forecasts from the band's own occupants and from its class's: the one off least lately speaks.
  let occupancy = occupancyForecast(cycle, cycle.floor, cycle.seats, before, at);
  classes?.forEach((c, r) => {
    const other = c ? occupancyForecast(cycle.cls?.[r], cycle.floor, c.seats, c.before, at) : undefined;
    if (other && (!occupancy || other.error < occupancy.error)) occupancy = other;
  });
  const others = [cycleForecast(cycle, before, at), occupancy];
  for (const other of others) {
    if (!other) continue;
    const w = 1 / Math.max(0.5, other.error) ** 2;
    weight += w;
    sum += w * other.value;
  }
  return sum / weight;
}

/**
 * The quote of a waiting party of `band` (VENUE_WIDE_BAND: a party of unknown size, the join
 * page's figure). Null when the venue has neither a pace nor history yet (docs/product.md §4:
 * show nothing). `withBasis`: also what it was made from, every candidate's forecast included
 * (a join keeps it); reads skip that work.
 */
export function estimate(book: PaceBook, band: number, before: Before, withBasis = false): Estimate | null {
  const venue = rowOf(book, VENUE_WIDE_BAND);
  const venueService = serviceOf(book, VENUE_WIDE_BAND);
  if (venueService === undefined) return null;
  const venueBefore = before.ahead + before.called;
  // The pace counts the tables still to free: those called hold theirs already (module comment).
  const venuePace = (before.ahead + 1) * venueService;
  const own = band === VENUE_WIDE_BAND ? undefined : rowOf(book, band);
  // The band's forecasts are kept (its fit learns from them) from its first seating; they quote once it has enough.
  const ownService = own ? serviceOf(book, band) : undefined;
  const bandBefore = before.aheadInBand + before.calledInBand;
  const bandPace = ownService === undefined ? null : (before.aheadInBand + 1) * ownService;
  const bandReady = bandPace !== null && own!.samples >= MIN_BAND_SAMPLES;
  const classes = bandPace === null ? undefined : classesOf(book, band, before);
  const central = bandReady ? forecastOf(own, bandPace, bandBefore, book.at, classes) : forecastOf(venue, venuePace, venueBefore, book.at);
  const spreads = own && own.quotes >= MIN_RESIDUALS ? own : venue && venue.quotes >= MIN_RESIDUALS ? venue : undefined;
  const range = rangeOf(central, spreads?.spread_low ?? DEFAULT_SPREAD_LOW, spreads?.spread_high ?? DEFAULT_SPREAD_HIGH);
  if (!withBasis) return range;
  const basis: QuoteBasis = {
    venue: {
      pace: venuePace,
      cycle: cycleInputs(cycleOf(venue), venueBefore, book.at),
      occ: occupancyInputs(cycleOf(venue), venueBefore, book.at),
      before: venueBefore,
    },
    band:
      bandPace === null
        ? null
        : {
            pace: bandPace,
            cycle: cycleInputs(cycleOf(own), bandBefore, book.at),
            occ: occupancyInputs(cycleOf(own), bandBefore, book.at),
            cls: (classes ?? CLASS_RANGES.map(() => null)).map((c, r) =>
              c ? occupancyInputs(cycleOf(own), c.before, book.at, cycleOf(own)?.cls?.[r] ?? {}, c.seats) : null,
            ),
            before: bandBefore,
          },
  };
  return { ...range, basis };
}

