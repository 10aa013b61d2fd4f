/**
 * Calibrated ranges (docs/decisions/037-calibrated-ranges.md, "quotes you can bet on"): a range is a promise that about 80 % of seated parties wait inside it
 * and at most 10 % past its top. Neither the estimator's spread nor the floor's Monte Carlo
 * percentiles keep that promise by themselves (the models are wrong in ways they cannot see), so
 * both set their range from their own recent errors, split conformal prediction done online:
 *
 * - At each seat, the quote the party was given at its join is scored against its wait on a
 *   relative scale, r = (actual − quoted) / (quoted + MARGIN_MINUTES).
 * - The last RESIDUALS_KEPT scores are kept (a ring, newest last) per venue and band, with the
 *   estimator's row or in the floor's state.
 * - The range of a quote q is [q + r₁₀ · (q + margin), q + r₉₀ · (q + margin)], r₁₀ and r₉₀ the
 *   finite-sample conformal quantiles of the kept scores (the ⌊0.1 (n + 1)⌋-th smallest and the
 *   ⌈0.9 (n + 1)⌉-th): if the next party's error is exchangeable with the kept ones, at most 10 %
 *   wait past the top and at most 10 % under the bottom.
 *
 * Pure functions over plain arrays: the callers store the ring where their state lives.
 */

/** Short waits vary by minutes, not by a share of themselves: the scale's floor. Field figure (a walk back to the door is minutes). */
export const MARGIN_MINUTES = 5;
/** The range aims to hold 80 %: from the 10th to the 90th percentile of the errors (docs/decisions/037-calibrated-ranges.md). */
export const LOW_QUANTILE = 0.1;
export const HIGH_QUANTILE = 0.9;
/**
 * Scores kept per venue and band: enough for a 90th percentile to sit between distinct scores
 * (6 above it), few enough to follow a venue that changes (two or three busy evenings). Derivation.
 */
export const RESIDUALS_KEPT = 64;
/** Scores a ring needs before its quantiles speak; until then, the default spread. Derivation: the 90th percentile of 20 is the 19th. */
export const MIN_RESIDUALS = 20;
/**
 * The estimator's spread before a venue has MIN_RESIDUALS outcomes of its own: the 10th and 90th
 * percentiles of the relative errors over all venues of the training scenarios of
 * bench/estimate.bench.ts (chosen there, rounded outwards).
 */
export const DEFAULT_SPREAD_LOW = -0.35;
export const DEFAULT_SPREAD_HIGH = 0.55;

/** A seated party's score: how far its wait ran over (positive) or under its quote, relative to the quote. */
export const residualOf = (quoted: number, actual: number): number => (actual - quoted) / (Math.max(0, quoted) + MARGIN_MINUTES);

/** The ring after one more score (a new array: stored state is never changed in place). */
export function withResidual(ring: readonly number[] | undefined, score: number): number[] {
  const next = [...(ring ?? []), score];
  if (next.length > RESIDUALS_KEPT) next.splice(0, next.length - RESIDUALS_KEPT);
  return next;
}

/**
 * The spreads of each ring worked out so far: a ring is never changed once made (`withResidual`
 * makes a new one), and every party's seat of a kept book asks its band's (floor.ts `keptSeats`,
 * `forecastBehind`), so each ring is sorted once, not once per party
 * (docs/decisions/068-spreads-sorted-once.md).
 */
const spreads = new WeakMap<readonly number[], Readonly<{ low: number; high: number }> | null>();

/** The spreads a ring sets (its conformal 10th and 90th percentiles), or null while it holds fewer than MIN_RESIDUALS; shared, never changed. */
export function spreadOf(ring: readonly number[] | undefined): Readonly<{ low: number; high: number }> | null {
  if (!ring) return null;
  let spread = spreads.get(ring);
  if (spread === undefined) {
    const worked = spreadOfRing(ring);
    spreads.set(ring, (spread = worked && Object.freeze(worked)));
  }
  return spread;
}

/** `spreadOf` worked out afresh (bench/lib/floor-micro.ts times the two). */
export function spreadOfRing(ring: readonly number[] | undefined): { low: number; high: number } | null {
  if (!ring || ring.length < MIN_RESIDUALS) return null;
  const sorted = [...ring].sort((a, b) => a - b);
  const n = sorted.length;
  const lowAt = Math.max(0, Math.floor(LOW_QUANTILE * (n + 1)) - 1);
  const highAt = Math.min(n - 1, Math.ceil(HIGH_QUANTILE * (n + 1)) - 1);
  return { low: sorted[lowAt]!, high: sorted[highAt]! };
}

/**
 * Whole minutes as a diner reads them: at least 1, the range around the quote, rounded outwards,
 * never a range of one figure. The spreads may both be positive (a venue whose waits run long):
 * the range then sits above the central quote, which stays inside it.
 */
export function rangeOf(central: number, spreadLow: number, spreadHigh: number): { time: number; low: number; high: number } {
  const time = Math.max(1, Math.round(central));
  const scale = Math.max(0, central) + MARGIN_MINUTES;
  // Rounded outwards, but 7.999999999 is 8: floating-point noise must not widen the range.
  const low = Math.max(0, Math.min(time - 1, Math.floor(central + spreadLow * scale + 1e-9)));
  const high = Math.max(time + 1, Math.ceil(central + spreadHigh * scale - 1e-9));
  return { time, low, high };
}
