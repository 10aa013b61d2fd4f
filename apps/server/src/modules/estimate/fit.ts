import type { PaceRow } from '../../db/types.js';

/**
 * The pace's fit (docs/decisions/022-wait-estimates.md, "The estimator" 1): a weighted
 * least-squares line, wait = a + b × pace forecast, over the row's seated parties, newer ones
 * weighing more. `a` learns the minutes from the call to the table that every party waits; `b`
 * how far the pace over- or under-states this venue. A ridge keeps `b` near 1 while data is thin.
 * Its sums live in the row (`fit_w`, `fit_x`, `fit_xx`, `fit_y`, `fit_xy`).
 */

/** Each seated party's weight decays by this factor per newer party (chosen: about 100 parties remembered). */
const FIT_MEMORY = 0.99;
/** Pulls the slope toward 1 (the pace taken at its word) while the fit has seen little, minutes² (chosen on the training scenarios of bench/estimate.bench.ts). */
const SLOPE_PRIOR = 400;

export interface Line {
  a: number;
  b: number;
}

/** The row's line, or null before it has a seated party's worth of weight. */
export function solveFit(row: PaceRow): Line | null {
  if (row.fit_w < 1) return null;
  // Weighted least squares with a ridge on (b - 1): [w, Σx; Σx, Σx² + ρ] [a; b] = [Σy; Σxy + ρ].
  const { fit_w: w, fit_x: sx, fit_xx: sxx, fit_y: sy, fit_xy: sxy } = row;
  const det = w * (sxx + SLOPE_PRIOR) - sx * sx;
  if (!(det > 0)) return null;
  const b = (w * (sxy + SLOPE_PRIOR) - sx * sy) / det;
  return { a: (sy - b * sx) / w, b: Math.max(0, b) };
}

/** The fitted wait for a pace forecast `x` on this line: a + b·x, never below 0; `x` itself without a line. */
export const fitted = (line: Line | null, x: number): number => (line ? Math.max(0, line.a + line.b * x) : x);

/** One more seated party (pace forecast `x`, wait `actual`) into the row's sums (the row is being written). */
export function learnFit(row: PaceRow, x: number, actual: number): void {
  row.fit_w = FIT_MEMORY * row.fit_w + 1;
  row.fit_x = FIT_MEMORY * row.fit_x + x;
  row.fit_xx = FIT_MEMORY * row.fit_xx + x * x;
  row.fit_y = FIT_MEMORY * row.fit_y + actual;
  row.fit_xy = FIT_MEMORY * row.fit_xy + x * actual;
}
