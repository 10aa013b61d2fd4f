import { type GettingCloseSettings, isGettingClose as isCloseByRule } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';

/**
 * The getting-close rule, in one place (docs/product.md §8): one message when a party reaches the
 * venue's `gettingCloseAt` places from the front (0: off) and the upper end of its range is at most
 * `gettingCloseMinutes` (or its range is not known yet), claimed on the entry's row so it goes never
 * twice, never after a call, and never to a party that joined already that close. The pure rule is
 * the contract's (packages/contract/src/getting-close.ts), which the position page's "your turn is
 * coming" notice asks too. The join (join.service.ts) and the check after each change
 * (getting-close.service.ts) ask this file.
 */

/** How many places from the front count as close at this venue; 0 when the venue sends no such message. */
export function gettingClosePlaces(settings: Pick<GettingCloseSettings, 'gettingCloseAt'>): number {
  return settings.gettingCloseAt;
}

/** Whether a waiting party at `place` (1 is next) with this range top (minutes; null: unknown) is close. */
export function isGettingClose(settings: GettingCloseSettings, place: number, rangeHigh: number | null): boolean {
  return isCloseByRule(settings, place, rangeHigh);
}

/** Whether the party may still be told: not told (nor joined that close) already, never called. */
export function mayTellGettingClose(entry: Pick<EntryRow, 'getting_close_at' | 'notified_at'>): boolean {
  return entry.getting_close_at === null && entry.notified_at === null;
}

/**
 * Whether the party joined already that close: the join marks it told at the join's own time
 * (join.service.ts), so it gets neither the message nor the page's notice.
 */
export function joinedClose(entry: Pick<EntryRow, 'getting_close_at' | 'created_at'>): boolean {
  return entry.getting_close_at !== null && entry.getting_close_at === entry.created_at;
}
