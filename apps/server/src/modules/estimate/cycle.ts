import type { PaceRow } from '../../db/types.js';
import { CANDIDATE_TABLES, ERROR_RATE, bestCandidate, ema } from './candidates.js';
import type { OccModel } from './occupancy-forecast.js';

/**
 * The turn cycle (docs/decisions/022-wait-estimates.md, "The estimator" 2): a table frees about
 * one turn after its party sat down; with `c` tables (a candidate, candidates.ts), the party with
 * `j` parties before it gets the table of the party seated `c − j` seatings ago. The row keeps its
 * last seat times and, per candidate, the turn it implies (an average of wait minus forecast) and
 * how far its forecasts have been off; the best one speaks. This sees what the pace cannot: after
 * a burst of seatings, the next free table is a whole turn away.
 *
 * `RowModel` is everything a row learns beyond its columns, stored as JSON in `venue_pace.cycle`:
 * the cycle's, the occupancy forecasts' (occupancy-forecast.ts), the pace's error and the range's
 * scores (calibration.ts).
 */

/** Seat times a row keeps (derivation: the largest candidate and a few more). */
const KEPT_SEATS = 32;
/** How fast a candidate's turn follows new seatings (chosen on the training scenarios of bench/estimate.bench.ts). */
const TURN_RATE = 0.05;
/** The shortest waits: the quantile of the waits tracked as `shortest` and its step, minutes (chosen on the training scenarios of bench/estimate.bench.ts). */
const SHORTEST_QUANTILE = 0.2;
const SHORTEST_STEP = 0.5;
/** A seat time older than this (an earlier service) means a free table: the forecast is only `shortest` (field figure: a long dinner's turn). */
const HORIZON_MINUTES = 240;

/** A row's learned model (module comment): seat times (ms, oldest first), per candidate its turn and error (minutes). */
export interface RowModel extends OccModel {
  seats: number[];
  turn: (number | null)[];
  error: (number | null)[];
  scored: number[];
  /** How far the pace's fitted forecast has been off lately, minutes. */
  paceError: number | null;
  /**
   * A low quantile of the waits (SHORTEST_QUANTILE), minutes: no party waits less than this for
   * long, so no forecast goes under it. Stored as `floor` by rows written before it had this name.
   */
  shortest: number;
  /** A band's row only: its class occupancy forecasts, one per range of CLASS_RANGES. */
  cls?: (OccModel | null)[];
  /** The scores of this row's quotes against the waits, newest last (calibration.ts): the range's spreads. */
  residuals?: readonly number[];
}

export const freshModel = (): RowModel => ({
  seats: [],
  turn: CANDIDATE_TABLES.map(() => null),
  error: CANDIDATE_TABLES.map(() => null),
  scored: CANDIDATE_TABLES.map(() => 0),
  paceError: null,
  shortest: 0,
});

/** The row's model, parsed (a new object each time: memoised by its reader, estimator.ts BookMemo); undefined when it has none or it does not fit. */
export function parseModel(row: PaceRow | undefined): RowModel | undefined {
  if (!row || row.cycle === null) return undefined;
  let model: RowModel & { floor?: number };
  try {
    model = JSON.parse(row.cycle) as RowModel & { floor?: number };
  } catch {
    return undefined;
  }
  if (!Array.isArray(model.seats) || model.turn?.length !== CANDIDATE_TABLES.length) return undefined;
  if (typeof model.shortest !== 'number') model.shortest = typeof model.floor === 'number' ? model.floor : 0;
  delete model.floor;
  return model;
}

/**
 * Candidate `i`'s forecast for a party with `before` parties before it, minutes before the
 * candidate's turn is added: the seat time of the party whose table it will get, plus a whole turn
 * (without the shortest wait) for each cycle of all tables beyond the first. Null when the
 * candidate cannot say.
 */
function cycleInput(model: RowModel | undefined, i: number, before: number, at: number): number | null {
  const tables = CANDIDATE_TABLES[i]!;
  const seats = model?.seats ?? [];
  if (seats.length < tables) return null;
  const rounds = Math.floor(before / tables);
  const turn = model?.turn[i] ?? null;
  if (rounds > 0 && turn === null) return null;
  const pick = seats[seats.length - tables + (before % tables)]!;
  const since = Math.max(-HORIZON_MINUTES, (pick - at) / 60_000);
  return since + (rounds > 0 ? rounds * Math.max(1, turn! - model!.shortest) : 0);
}

/** Every candidate's forecast: what a join keeps so the seat can score them all. */
export const cycleInputs = (model: RowModel | undefined, before: number, at: number): (number | null)[] =>
  CANDIDATE_TABLES.map((_, i) => cycleInput(model, i, before, at));

/** The cycle's best candidate, -1 while none has a turn and has been scored enough. */
export const bestCycle = (model: RowModel): number =>
  bestCandidate(model.error, model.scored, (i) => model.turn[i] !== null && model.turn[i] !== undefined);

/** The best candidate's forecast (`best`, bestCycle), with its recent error; undefined while none has earned it. */
export function cycleForecast(model: RowModel, best: number, before: number, at: number): { value: number; error: number } | undefined {
  if (best < 0) return undefined;
  const x = cycleInput(model, best, before, at);
  return x === null ? undefined : { value: Math.max(model.shortest, x + model.turn[best]!), error: model.error[best]! };
}

/** Scores each candidate's forecast made at join against the wait, then moves its turn (the model is being written). */
export function learnCycle(model: RowModel, inputs: readonly unknown[], before: number, actual: number): void {
  inputs.forEach((xc, i) => {
    if (xc === null || typeof xc !== 'number' || i >= CANDIDATE_TABLES.length) return;
    const turn = model.turn[i] ?? null;
    if (turn !== null) {
      model.error[i] = ema(model.error[i] ?? null, Math.abs(actual - Math.max(model.shortest, xc + turn)), ERROR_RATE);
      model.scored[i] = (model.scored[i] ?? 0) + 1;
    }
    // A table seen free says nothing about the turn (its party left before this one came: the
    // forecast sat on the shortest wait), nor does a forecast a whole cycle away.
    const free = xc <= -HORIZON_MINUTES || (turn !== null && xc + turn <= model.shortest);
    if (!free && before < CANDIDATE_TABLES[i]!) model.turn[i] = ema(turn, actual - xc, TURN_RATE);
  });
}

/** The shortest waits after one more (a stochastic-gradient step toward the SHORTEST_QUANTILE of the waits). */
export function learnShortest(model: RowModel, actual: number): void {
  model.shortest = Math.max(0, model.shortest + SHORTEST_STEP * (actual < model.shortest ? SHORTEST_QUANTILE - 1 : SHORTEST_QUANTILE));
}

/** One more seat time, the oldest beyond KEPT_SEATS dropped. */
export function learnSeat(model: RowModel, seatedAt: number): void {
  model.seats.push(seatedAt);
  if (model.seats.length > KEPT_SEATS) model.seats.splice(0, model.seats.length - KEPT_SEATS);
}
