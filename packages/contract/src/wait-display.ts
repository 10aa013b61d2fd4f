/**
 * How a diner page shows a quoted range (docs/product.md §4; docs/product.md §4.3a): a
 * range wider than WIDE_RANGE_MINUTES promises little, so it reads "more than N min", N its lower
 * end, beside the parties ahead. The join page and the position page both ask this, so they never
 * disagree. No schema library here: the diner's pages bundle it as it is.
 */

/** A range wider than this (minutes, top minus bottom) is shown by its lower end only. */
export const WIDE_RANGE_MINUTES = 45;

export type WaitDisplay =
  { kind: 'range'; low: number; high: number } | { kind: 'about'; minutes: number } | { kind: 'moreThan'; minutes: number };

/** Whole minutes as the page shows them: the bottom rounded down, the top up; one figure when they meet. */
export function waitDisplay(range: { low: number; high: number }): WaitDisplay {
  const low = Math.max(0, Math.floor(range.low));
  const high = Math.max(1, Math.ceil(range.high));
  if (high - low > WIDE_RANGE_MINUTES) return { kind: 'moreThan', minutes: low };
  return high > low ? { kind: 'range', low, high } : { kind: 'about', minutes: high };
}
