import type { VenueSettings } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';

/**
 * The hold window, in one place (docs/product.md §7, §8): a call holds the table for the venue's
 * `holdMinutes` (0: no window); calling again starts it again; "I need more time" while called
 * extends it by those minutes, once per call; with `autoNoShow`, a party whose window ran out is
 * ended (`NoShow`) by a check every `HOLD_CHECK_MS` on every instance. The store's query of windows
 * that ran out (`findHoldsOverBefore`, `endHoldIfOver` in entries.repository.ts) is `isHoldOver`
 * written for the store. The texts that name the window (`{hold}`) are the message texts' own.
 */

/** How often each instance looks for hold windows that ran out (jobs/hold-windows.ts). */
export const HOLD_CHECK_MS = 5_000;

/** When the hold of a party called at `calledAt` ends; null when the venue holds no table (`holdMinutes` 0). */
export function holdEndsAt(settings: Pick<VenueSettings, 'holdMinutes'>, calledAt: number): number | null {
  return settings.holdMinutes > 0 ? calledAt + settings.holdMinutes * 60_000 : null;
}

/**
 * The window after "I need more time" by `minutes`: later only for a called party with a window not
 * yet extended in this call; undefined when the answer does not extend it.
 */
export function extendedHoldEnd(
  entry: Pick<EntryRow, 'status' | 'hold_until' | 'hold_extended'>,
  minutes: number | null,
): number | undefined {
  if (!minutes || entry.status !== 'called' || entry.hold_until === null || entry.hold_extended !== 0) return undefined;
  return entry.hold_until + minutes * 60_000;
}

/** Whether a called party's window has run out at `now`. */
export function isHoldOver(entry: Pick<EntryRow, 'status' | 'hold_until'>, now: number): boolean {
  return entry.status === 'called' && entry.hold_until !== null && entry.hold_until < now;
}

/** Whether the venue ends the parties whose window ran out itself (`autoNoShow`), or staff do. */
export function endsHoldsItself(settings: Pick<VenueSettings, 'autoNoShow'>): boolean {
  return settings.autoNoShow === true;
}
