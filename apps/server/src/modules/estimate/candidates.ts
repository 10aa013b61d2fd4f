/**
 * The estimator's candidate table counts (docs/decisions/022-wait-estimates.md): the turn cycle
 * (cycle.ts) and the occupancy forecast (occupancy-forecast.ts) do not know how many tables the
 * venue has; each tries every count below, scores each against the waits, and the one off least
 * lately speaks. What both share lives here.
 */

/** The table counts tried (derivation: every count a small venue may have, then a coarser grid up to a large dining room). */
export const CANDIDATE_TABLES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 24] as const;
/** How fast a candidate's error follows new seatings (chosen on the training scenarios of bench/estimate.bench.ts: about 30 seatings remembered). */
export const ERROR_RATE = 0.03;
/** Seatings a candidate must have been scored on before it may speak (chosen on the training scenarios of bench/estimate.bench.ts). */
export const MIN_SCORED = 10;

/** An exponential moving average's next value; the first value stands alone. */
export const ema = (previous: number | null, value: number, rate: number): number =>
  previous === null ? value : previous + rate * (value - previous);

/** The candidate with the smallest recent error among those scored enough (and `usable`), -1 while none. */
export function bestCandidate(
  error: readonly (number | null | undefined)[] | undefined,
  scored: readonly number[] | undefined,
  usable: (i: number) => boolean = () => true,
): number {
  let best = -1;
  for (let i = 0; i < CANDIDATE_TABLES.length; i++) {
    const e = error?.[i];
    if (e === null || e === undefined || (scored?.[i] ?? 0) < MIN_SCORED || !usable(i)) continue;
    if (best < 0 || e < error![best]!) best = i;
  }
  return best;
}
