import type { VenueSettings } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';

/**
 * The getting-close rule, in one place (docs/product.md §8): one message when a party reaches the
 * venue's `gettingCloseAt` places from the front (0: off), claimed on the entry's row so it goes
 * never twice, never after a call, and never to a party that joined already that close. The
 * join (join.service.ts) and the check after each change (getting-close.service.ts) ask it.
 */

/** How many places from the front count as close at this venue; 0 when the venue sends no such message. */
export function gettingClosePlaces(settings: Pick<VenueSettings, 'gettingCloseAt'>): number {
  return settings.gettingCloseAt;
}

/** Whether a waiting party at `place` (1 is next) is close at this venue. */
export function isGettingClose(settings: Pick<VenueSettings, 'gettingCloseAt'>, place: number): boolean {
  const within = gettingClosePlaces(settings);
  return within > 0 && place <= within;
}

/** Whether the party may still be told: not told (nor joined that close) already, never called. */
export function mayTellGettingClose(entry: Pick<EntryRow, 'getting_close_at' | 'notified_at'>): boolean {
  return entry.getting_close_at === null && entry.notified_at === null;
}
