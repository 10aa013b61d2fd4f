import { ErrorCode, type HostEntryResponse, RESTORE_WINDOW_MS, type VenueChannelEvent } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';
import { getVenue } from '../venues/venues.service.js';
import * as waitlistRepo from '../waitlist/waitlist.repository.js';
import { type WaitlistDeps, placeEntry } from '../waitlist/waitlist.service.js';
import { toHostEntry } from './host-entry-view.js';
import { reopenEntry } from './host-extras.repository.js';
import { findVenueEntry } from './host.service.js';

/** Staff endings an undo may reverse; a diner's own leave (Customer) is theirs, not ours. */
const UNDOABLE_REASONS = new Set(['Host', 'NoShow', 'Removed']);

/**
 * The console's undo: puts a party seated or taken off less than RESTORE_WINDOW_MS ago back where
 * it was (its join time and priority keep its place; a called party stays called). Event `update`.
 * The seating pace learnt from an undone seat stays: one sample barely moves the average.
 */
export async function restoreParty(deps: WaitlistDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  const undoable = entry.status === 'seated' || (entry.status === 'cancelled' && UNDOABLE_REASONS.has(entry.cancel_reason ?? ''));
  if (!undoable || entry.ended_at === null) {
    throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, 'Only a party seated or removed by staff can be put back.');
  }
  if (deps.now() - entry.ended_at > RESTORE_WINDOW_MS) {
    throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, `Too late to undo: a party can be put back within ${RESTORE_WINDOW_MS / 1000} seconds.`);
  }
  const status = entry.notified_at === null ? 'active' : 'called';
  if (!(await reopenEntry(deps.db.kysely, entry, status))) {
    throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, 'This party changed meanwhile; reload the queue.');
  }
  const event: VenueChannelEvent = { type: 'update', venueId, entryId, at: new Date(deps.now()).toISOString() };
  deps.bus.publish(event);
  const reopened = (await waitlistRepo.findEntryById(deps.db.kysely, entryId)) ?? entry;
  const venue = await getVenue(deps.db.kysely, venueId);
  return { entry: toHostEntry(reopened, await placeEntry(deps, reopened, venue)) };
}
