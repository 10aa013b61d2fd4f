import { CANDIDATE_TABLES, ERROR_RATE, bestCandidate, ema } from './candidates.js';
import { freeingTime, freeingTimes, suffixFreeingTimes } from './occupancy.js';

/**
 * The occupancy forecast (docs/decisions/022-wait-estimates.md, "The estimator" 3 and 4): the
 * parties seated last are the tables' occupants; with `c` tables (a candidate, candidates.ts) the
 * party with `j` parties before it waits for the `j + 1`-th of the last `c` to leave (occupancy.ts,
 * the arithmetic), plus the latency, the minutes from a free table to a seated party. Learned per
 * model on the seat: the turn's median, the latency, each candidate's error. A row's own model
 * reads the row's seat times; a size class's (CLASS_RANGES) the merged seat times of its bands.
 */

/** The turn's median before it has learned one, minutes (field figure: a restaurant's table turn is about an hour). */
const PRIOR_TURN = 60;
/** Its bounds, minutes (field figures: a coffee, a long dinner). */
const MIN_TURN = 10;
const MAX_TURN = 300;
/** How fast the turn's median moves, a multiplicative step (chosen on the training scenarios of bench/estimate.bench.ts). */
const TURN_RATE = 0.03;
/** How fast the latency follows (chosen on the training scenarios of bench/estimate.bench.ts). */
const LATENCY_RATE = 0.05;
/** The latency learns from parties whose table was free at their join: weight e^(−forecast / this), minutes (chosen: a walk back to the door). */
const FREE_MINUTES = 5;
/** A miss's scale: the turn moves by the miss over (forecast + this), clamped to ±1 (chosen: short forecasts' misses are minutes, not shares). */
const MISS_MARGIN_MINUTES = 10;

/**
 * The size classes of a band's class forecasts, as ranges of bands relative to the party's,
 * [from, to]: a party waits for a table its size fits, held by and wanted by the parties of the
 * bands that fit the same tables. In advanced mode that is the band alone (the band's own
 * forecast); in basic mode, where a party may take a table one size bigger, its band and the
 * larger ones [0, +∞), or also the band below [-1, +∞) (derivation: docs/product.md §2, the modes).
 */
export const CLASS_RANGES: readonly (readonly [number, number])[] = [
  [0, Infinity],
  [-1, Infinity],
];
/** How many seat times a class's occupants are drawn from (the last ones of its bands' rows; derivation: the largest candidate). */
export const CLASS_SEATS = CANDIDATE_TABLES[CANDIDATE_TABLES.length - 1]!;

/** An occupancy forecast's learned state: its turn's median, the latency, per candidate its error and how often scored. */
export interface OccModel {
  occTurn?: number;
  occLatency?: number | null;
  occError?: (number | null)[];
  occScored?: number[];
}

/** The minutes from a free table to a seated party: learned, or `shortest` (the shortest waits, cycle.ts) until then. */
export const latencyOf = (model: OccModel, shortest: number): number => model.occLatency ?? shortest;

/** The best candidate of a model, -1 while none has been scored enough. */
export const bestOccupancy = (model: OccModel): number => bestCandidate(model.occError, model.occScored);

/** The ages at `at`, minutes, of the last `count` of `seats`. */
const agesOf = (seats: readonly number[], count: number, at: number): number[] =>
  seats.slice(Math.max(0, seats.length - count)).map((seat) => Math.max(0, (at - seat) / 60_000));

/**
 * Candidate `i`'s forecast: the last `c` of the occupants are at the tables, and the party with
 * `before` parties before it waits for the `before + 1`-th of them to leave; minutes from now,
 * before the latency. `times`: those occupants' departures (occupancy.ts), null while there are
 * fewer occupants than the candidate has tables.
 */
function occupancyInput(model: OccModel, shortest: number, i: number, before: number, times: readonly number[] | null): number | null {
  if (!times) return null;
  return freeingTime(times, CANDIDATE_TABLES[i]!, before, model.occTurn ?? PRIOR_TURN, latencyOf(model, shortest));
}

/** Every candidate's forecast from these occupants: what a join keeps so the seat can score them all. */
export function occupancyInputs(
  model: OccModel,
  shortest: number,
  seats: readonly number[],
  before: number,
  at: number,
): (number | null)[] {
  // The largest candidate's occupants: every smaller one's are the last of them, so one pass
  // works out every candidate's departures (occupancy.ts `suffixFreeingTimes`).
  const turn = model.occTurn ?? PRIOR_TURN;
  const times = suffixFreeingTimes(agesOf(seats, CANDIDATE_TABLES[CANDIDATE_TABLES.length - 1]!, at), turn, CANDIDATE_TABLES, before + 1);
  return CANDIDATE_TABLES.map((_, i) => occupancyInput(model, shortest, i, before, times[i]!));
}

/** Every departure's time of the best candidate's occupants at one moment: worked out once per model, moment and occupants (BookMemo). */
export interface Departures {
  times: number[];
}

export function departuresOf(model: OccModel, seats: readonly number[], at: number): Departures | undefined {
  const i = bestOccupancy(model);
  if (i < 0) return undefined;
  const tables = CANDIDATE_TABLES[i]!;
  if (seats.length < tables) return undefined;
  return { times: freeingTimes(agesOf(seats, tables, at), model.occTurn ?? PRIOR_TURN, tables) };
}

/** The best candidate's forecast with its recent error, from the model's departures; undefined while none has earned it. */
export function occupancyForecast(
  model: OccModel,
  shortest: number,
  departures: Departures | undefined,
  before: number,
): { value: number; error: number } | undefined {
  if (!departures) return undefined;
  const i = bestOccupancy(model);
  const x = occupancyInput(model, shortest, i, before, departures.times);
  return x === null ? undefined : { value: x + latencyOf(model, shortest), error: model.occError![i]! };
}

/**
 * A seated party teaches a model three things: each candidate's error; the latency from parties
 * whose table was free at their join; the turn's median from the others, nudged up when the party
 * waited longer than the best candidate said, down when less.
 */
export function learnOccupancy(model: OccModel, shortest: number, occ: readonly unknown[], actual: number): void {
  const latency = latencyOf(model, shortest);
  const error = (model.occError ??= CANDIDATE_TABLES.map(() => null));
  const scored = (model.occScored ??= CANDIDATE_TABLES.map(() => 0));
  const reference = bestOccupancy(model);
  occ.forEach((x, i) => {
    if (typeof x !== 'number' || i >= CANDIDATE_TABLES.length) return;
    error[i] = ema(error[i] ?? null, Math.abs(actual - (x + latency)), ERROR_RATE);
    scored[i] = (scored[i] ?? 0) + 1;
  });
  // Before any candidate has earned it, the middle one teaches the latency and the turn.
  const x = occ[reference >= 0 ? reference : Math.floor(CANDIDATE_TABLES.length / 2)];
  if (typeof x !== 'number') return;
  const free = Math.exp(-x / FREE_MINUTES);
  model.occLatency = latency + LATENCY_RATE * free * (actual - x - latency);
  if (x > 1) {
    const miss = Math.max(-1, Math.min(1, (actual - latency - x) / (x + MISS_MARGIN_MINUTES)));
    const turn = (model.occTurn ?? PRIOR_TURN) * Math.exp(TURN_RATE * (1 - free) * miss);
    model.occTurn = Math.max(MIN_TURN, Math.min(MAX_TURN, turn));
  }
}
