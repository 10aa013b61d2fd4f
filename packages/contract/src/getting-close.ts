import { SETTING_LIMITS } from './constants.js';

/**
 * The getting-close rule, pure (docs/product.md §8, almost your turn by time, not place alone): the
 * server's message (apps/server/src/modules/queue/getting-close.ts) and the position page's
 * "your turn is coming" notice both ask it, so they never disagree. No schema library here: the
 * diner's page bundles it as it is.
 */

/** The limits of the `gettingCloseMinutes` setting (minutes); its default is in defaults.ts. */
export const GETTING_CLOSE_MINUTES_MIN = SETTING_LIMITS.gettingCloseMinutes.min;
export const GETTING_CLOSE_MINUTES_MAX = SETTING_LIMITS.gettingCloseMinutes.max;

export interface GettingCloseSettings {
  /** Places from the front that count as close; 0: the venue tells no one. */
  gettingCloseAt: number;
  /** The upper end of the party's range must be at most this many minutes. */
  gettingCloseMinutes: number;
}

/**
 * Whether a waiting party is close: within `gettingCloseAt` places (`place` 1 is next, 0 or less:
 * no place known) and the upper end of its range at most `gettingCloseMinutes`, or, when the range
 * is unknown (`rangeHigh` null: no pace or history yet), by its place alone. Whether it may still be
 * told (not told before, not joined that close) is the caller's, from the entry.
 */
export function isGettingClose(settings: GettingCloseSettings, place: number, rangeHigh: number | null): boolean {
  if (settings.gettingCloseAt <= 0 || place < 1 || place > settings.gettingCloseAt) return false;
  return rangeHigh === null || rangeHigh <= settings.gettingCloseMinutes;
}
