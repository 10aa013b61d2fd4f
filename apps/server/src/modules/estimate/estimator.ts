import type { EntryRow, PaceRow, PaceSlotRow } from '../../db/types.js';
import { DEFAULT_SPREAD_HIGH, DEFAULT_SPREAD_LOW, MIN_RESIDUALS, rangeOf, residualOf, spreadOf, withResidual } from './calibration.js';
import { ERROR_RATE, ema } from './candidates.js';
import {
  type RowModel,
  bestCycle,
  cycleForecast,
  cycleInputs,
  freshModel,
  learnCycle,
  learnSeat,
  learnShortest,
  parseModel,
} from './cycle.js';
import { type Line, fitted, learnFit, solveFit } from './fit.js';
import type { FloorBook } from './floor.js';
import {
  CLASS_RANGES,
  CLASS_SEATS,
  type Departures,
  type OccModel,
  departuresOf,
  learnOccupancy,
  occupancyForecast,
  occupancyInputs,
} from './occupancy-forecast.js';
import { learnService, serviceInterval, serviceMinutes } from './pace.js';

export { CANDIDATE_TABLES as CYCLE_TABLES } from './candidates.js';
export { rangeOf } from './calibration.js';
export { CLASS_RANGES } from './occupancy-forecast.js';
export { nextSlot, slotOf } from './pace.js';

/**
 * The wait estimator (docs/decisions/022-wait-estimates.md, docs/product.md §4; the math in this
 * folder's README.md). Three forecasts of a waiting party's wait, each learned from the venue's
 * own seatings, kept per band of party sizes and for the whole venue:
 *
 * 1. the pace (pace.ts) times the tables that must free first, fitted to the waits (fit.ts);
 * 2. the turn cycle (cycle.ts);
 * 3. the occupancy (occupancy-forecast.ts, occupancy.ts), a band's also for its size classes.
 *
 * The quote weighs the three by how far each has been off lately; the range is set from the
 * quote's own recent errors (calibration.ts). Everything is learned on the seat, O(1) per
 * seating, into one row per venue and band and one per hour of the week; a quote reads those rows
 * and the counts the position read has anyway, so it costs the same at any queue length.
 */

/** Band key for the whole venue. */
export const VENUE_WIDE_BAND = -1;

/** A band's own forecasts take over from the venue's after this many seatings (chosen on the training scenarios of bench/estimate.bench.ts). */
const MIN_BAND_SAMPLES = 8;
/** A forecast's weight is 1 / error², its error never counted under this, minutes (chosen: a minute's rounding, halved). */
const MIN_WEIGHED_ERROR = 0.5;

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

/**
 * The estimate's state of one venue, as a quote reads it: the estimator's rows, this hour's
 * history and, for a venue that lists its tables, its floor. Read by `findBook` (floor-events.ts).
 */
export interface PaceBook {
  paces: readonly PaceRow[];
  /** The venue's hour-of-week rows for `slot` (one per band that has history). */
  slots: readonly PaceSlotRow[];
  slot: number;
  /** When the book was read: the recent pace ages from its last seating to here. */
  at: number;
  /** The venue's floor, when it lists its tables and the floor has learned enough (floor.ts). */
  floor?: FloorBook;
  /** What quotes from these rows work out once (BookMemo): shared by every copy of the book (a kept book's copies differ only by `at`). */
  memo?: BookMemo;
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

/** A row as quotes read it: parsed and solved once. */
interface ReadRow {
  row: PaceRow;
  model: RowModel | undefined;
  line: Line | null;
  bestCycle: number;
}

/** A class of a band: its occupants (the last seat times of its bands' rows, oldest first) and its bands. */
interface ClassSeats {
  lo: number;
  hi: number;
  seats: number[];
}

/**
 * What quotes from one book's rows work out once, whatever the moment: each row parsed and its
 * fit solved, each band's size classes' occupants; and, for the moment `at`, each band's service
 * interval and each model's departures. Made with the book (`newMemo`, paces.repository.ts); a
 * book without one (a test's, a bench's) gets a fresh one per quote. No module-level state.
 */
export class BookMemo {
  private readonly rows = new Map<number, ReadRow | null>();
  private readonly classes = new Map<number, (ClassSeats | null)[]>();
  private at = Number.NaN;
  private readonly service = new Map<number, number | undefined>();
  private readonly departures = new Map<OccModel, { seats: readonly number[]; value: Departures | undefined }>();

  constructor(private readonly paces: readonly PaceRow[]) {}

  row(band: number): ReadRow | undefined {
    let read = this.rows.get(band);
    if (read === undefined) {
      const row = this.paces.find((p) => p.band === band);
      const model = parseModel(row);
      read = row ? { row, model, line: solveFit(row), bestCycle: model ? bestCycle(model) : -1 } : null;
      this.rows.set(band, read);
    }
    return read ?? undefined;
  }

  /** The largest band with a row. */
  get largestBand(): number {
    return Math.max(0, ...this.paces.map((p) => p.band));
  }

  classSeats(band: number): (ClassSeats | null)[] {
    let ranges = this.classes.get(band);
    if (!ranges) {
      const seen = new Set<string>([`${band}:${band}`]);
      const largest = this.largestBand;
      ranges = CLASS_RANGES.map(([from, to]) => {
        const lo = Math.max(0, band + from);
        const hi = Math.min(largest, band + to);
        const key = `${lo}:${hi}`;
        if (seen.has(key)) return null;
        seen.add(key);
        const merged: number[] = [];
        for (let b = lo; b <= hi; b++) merged.push(...(this.row(b)?.model?.seats ?? []));
        return { lo, hi, seats: merged.sort((x, y) => x - y).slice(-CLASS_SEATS) };
      });
      this.classes.set(band, ranges);
    }
    return ranges;
  }

  private moment(at: number): void {
    if (at === this.at) return;
    this.at = at;
    this.service.clear();
    this.departures.clear();
  }

  serviceAt(book: PaceBook, band: number): number | undefined {
    this.moment(book.at);
    if (this.service.has(band)) return this.service.get(band);
    const value = serviceMinutes(
      this.row(band)?.row,
      book.slots.find((s) => s.band === band),
      book.at,
    );
    this.service.set(band, value);
    return value;
  }

  departuresAt(model: OccModel, seats: readonly number[], at: number): Departures | undefined {
    this.moment(at);
    const kept = this.departures.get(model);
    if (kept && kept.seats === seats) return kept.value;
    const value = departuresOf(model, seats, at);
    this.departures.set(model, { seats, value });
    return value;
  }
}

/** A fresh memo for a book's rows (paces.repository.ts makes one with every book it reads). */
export const newMemo = (paces: readonly PaceRow[]): BookMemo => new BookMemo(paces);

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

/** The row's learned model as the tests and the bench read it (cycle.ts). */
export const cycleOf = (row: PaceRow | undefined): RowModel | undefined => parseModel(row);

export function parseBasis(text: string | null): QuoteBasis | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as QuoteBasis;
  } catch {
    return null;
  }
}

type Seated = Pick<EntryRow, 'created_at' | 'quoted_minutes' | 'quote_basis'>;

/** What a seated party teaches one row: the service interval, every forecast, how its quote turned out. */
export function nextPace(previous: PaceRow | undefined, venueId: string, band: number, seated: Seated, seatedAt: number): PaceRow {
  const row = { ...(previous ?? freshPace(venueId, band)) };
  learnService(row, serviceInterval(previous, seated.created_at, seatedAt));
  row.last_seated_at = Math.max(row.last_seated_at, seatedAt);
  const actual = (seatedAt - seated.created_at) / 60_000;
  const basis = parseBasis(seated.quote_basis);
  const given = band === VENUE_WIDE_BAND ? basis?.venue : basis?.band;
  // Written by this server at join; a row from another version that does not fit teaches nothing.
  const inputs = given && Array.isArray(given.cycle) && typeof given.before === 'number' ? given : undefined;
  const model = parseModel(previous) ?? freshModel();
  if (inputs) learnForecasts(row, model, inputs, actual);
  learnShortest(model, actual);
  learnSeat(model, seatedAt);
  const own = typeof basis?.own === 'number' ? basis.own : seated.quoted_minutes;
  if (own !== null) learnSpread(row, model, own, actual);
  row.cycle = JSON.stringify(model);
  return row;
}

/**
 * The quote's range learns from how it turned out (calibration.ts): the score joins the row's
 * ring, and the row's spreads become the ring's conformal quantiles once it holds enough (a row
 * stored before the ring keeps its old spreads until then).
 */
function learnSpread(row: PaceRow, model: RowModel, quoted: number, actual: number): void {
  model.residuals = withResidual(model.residuals, residualOf(quoted, actual));
  const spread = spreadOf(model.residuals);
  if (spread) {
    row.spread_low = spread.low;
    row.spread_high = spread.high;
  }
  row.quotes += 1;
}

/** Scores each forecast made at join against the wait, then moves the fit, the cycle and the occupancy models. */
function learnForecasts(row: PaceRow, model: RowModel, inputs: ForecastInputs, actual: number): void {
  const x = inputs.pace;
  if (x !== null) {
    // Solved afresh: this row object is still being written.
    model.paceError = ema(model.paceError, Math.abs(actual - fitted(solveFit(row), x)), ERROR_RATE);
    learnFit(row, x, actual);
  }
  learnCycle(model, inputs.cycle, inputs.before, actual);
  if (Array.isArray(inputs.occ)) learnOccupancy(model, model.shortest, inputs.occ, actual);
  if (Array.isArray(inputs.cls)) {
    const models = (model.cls ??= CLASS_RANGES.map(() => null));
    CLASS_RANGES.forEach((_, r) => {
      const occ = inputs.cls![r];
      if (!Array.isArray(occ)) return;
      learnOccupancy((models[r] ??= {}), model.shortest, occ, actual);
    });
  }
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

/** A class of a band as one party sees it: its occupants and the parties before the party in its bands. */
interface SizeClass {
  seats: readonly number[];
  before: number;
}

/**
 * The size classes of a party of `band` (CLASS_RANGES), with what stands before it in each: null
 * for a range that is the band alone (its own forecast) or the same bands as an earlier one;
 * undefined when the counts per band are not known. The occupants come from the memo; the counts
 * are the party's.
 */
function classesOf(memo: BookMemo, band: number, before: Before): (SizeClass | null)[] | undefined {
  const ahead = before.aheadByBand;
  const called = before.calledByBand;
  if (!ahead || !called) return undefined;
  return memo.classSeats(band).map((range) => {
    if (!range) return null;
    let count = 0;
    for (let b = range.lo; b <= range.hi; b++) count += (ahead[b] ?? 0) + (called[b] ?? 0);
    return { seats: range.seats, before: count };
  });
}

/**
 * One row's quote: the pace's fitted forecast, the cycle's, the occupancy's and, for a band, its
 * class occupancy forecasts, weighed by how far each has been off.
 */
function forecastOf(
  memo: BookMemo,
  read: ReadRow | undefined,
  pace: number,
  before: number,
  at: number,
  classes?: readonly (SizeClass | null)[],
): number {
  const fittedPace = fitted(read?.line ?? null, pace);
  const model = read?.model;
  if (model?.paceError === null || model?.paceError === undefined) return fittedPace;
  const weightOf = (error: number) => 1 / Math.max(MIN_WEIGHED_ERROR, error) ** 2;
  let weight = weightOf(model.paceError);
  let sum = weight * fittedPace;
  // The occupancy forecasts from the band's own occupants and from its classes': the one off least lately speaks.
  let occupancy = occupancyForecast(model, model.shortest, memo.departuresAt(model, model.seats, at), before);
  classes?.forEach((c, r) => {
    const cls = model.cls?.[r];
    const other = c && cls ? occupancyForecast(cls, model.shortest, memo.departuresAt(cls, c.seats, at), c.before) : undefined;
    if (other && (!occupancy || other.error < occupancy.error)) occupancy = other;
  });
  for (const other of [cycleForecast(model, read!.bestCycle, before, at), occupancy]) {
    if (!other) continue;
    const w = weightOf(other.error);
    weight += w;
    sum += w * other.value;
  }
  return sum / weight;
}

/** Every forecast's inputs for one row at a party's place: what a join keeps so the seat can score them all. */
function inputsOf(model: RowModel | undefined, pace: number, before: number, at: number): ForecastInputs {
  return {
    pace,
    cycle: cycleInputs(model, before, at),
    occ: occupancyInputs(model ?? {}, model?.shortest ?? 0, model?.seats ?? [], before, at),
    before,
  };
}

/**
 * The quote of a waiting party of `band` (VENUE_WIDE_BAND: a party of unknown size, the join
 * page's figure). Null when the venue has neither a pace nor history yet (docs/product.md §4:
 * show nothing). `withBasis`: also what it was made from, every candidate's forecast included
 * (a join keeps it); reads skip that work.
 */
export function estimate(book: PaceBook, band: number, before: Before, withBasis = false): Estimate | null {
  const memo = book.memo ?? newMemo(book.paces);
  const venueService = memo.serviceAt(book, VENUE_WIDE_BAND);
  if (venueService === undefined) return null;
  const venue = memo.row(VENUE_WIDE_BAND);
  const venueBefore = before.ahead + before.called;
  // The pace counts the tables still to free: those called hold theirs already.
  const venuePace = (before.ahead + 1) * venueService;
  const own = band === VENUE_WIDE_BAND ? undefined : memo.row(band);
  // The band's forecasts are kept (its fit learns from them) from its first seating; they quote once it has enough.
  const ownService = own ? memo.serviceAt(book, band) : undefined;
  const bandBefore = before.aheadInBand + before.calledInBand;
  const bandPace = ownService === undefined ? null : (before.aheadInBand + 1) * ownService;
  const bandReady = bandPace !== null && own!.row.samples >= MIN_BAND_SAMPLES;
  const classes = bandPace === null ? undefined : classesOf(memo, band, before);
  const central = bandReady
    ? forecastOf(memo, own, bandPace, bandBefore, book.at, classes)
    : forecastOf(memo, venue, venuePace, venueBefore, book.at);
  const spreads = [own?.row, venue?.row].find((row) => row && row.quotes >= MIN_RESIDUALS);
  const range = rangeOf(central, spreads?.spread_low ?? DEFAULT_SPREAD_LOW, spreads?.spread_high ?? DEFAULT_SPREAD_HIGH);
  if (!withBasis) return range;
  const ownModel = own?.model;
  const basis: QuoteBasis = {
    venue: inputsOf(venue?.model, venuePace, venueBefore, book.at),
    band:
      bandPace === null
        ? null
        : {
            ...inputsOf(ownModel, bandPace, bandBefore, book.at),
            cls: (classes ?? CLASS_RANGES.map(() => null)).map((c, r) =>
              c ? occupancyInputs(ownModel?.cls?.[r] ?? {}, ownModel?.shortest ?? 0, c.seats, c.before, book.at) : null,
            ),
          },
  };
  return { ...range, basis };
}
