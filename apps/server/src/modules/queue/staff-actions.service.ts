import {
  ErrorCode,
  type HostCancelBody,
  type HostCreateEntryBody,
  type HostEntryPatch,
  type HostEntryResponse,
  type HostQueueResponse,
  ORIGIN_LABEL_HOST,
  type WaitlistStateResponse,
} from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { getVenue } from '../venues/venues.service.js';
import { callEntry, editEntry, endEntry, restoreEntry, seatEntry } from './entry-actions.service.js';
import { assertTransition } from './entry-state.js';
import { toHostEntry } from './entry-views.js';
import { findPaceOf } from './queue-reads.service.js';
import { joinWaitlist } from './join.service.js';
import { NOT_WAITING, placeQueue } from './placement.js';
import { placeEntry } from './position.service.js';
import type { QueueDeps } from './queue-deps.js';
import * as repo from './entries.repository.js';
import { setWaitlistState } from './waitlist-state.service.js';

/** What staff do at the door, on entries of their own venue; the staff session is checked by the route. */

/** The live queue: one query for the open entries, positions computed in memory. */
export async function getQueue(deps: QueueDeps, venueId: string): Promise<HostQueueResponse> {
  const venue = await getVenue(deps.db.kysely, venueId);
  const [rows, paces] = await Promise.all([
    repo.listOpenEntries(deps.db.kysely, venueId),
    findPaceOf(deps.pace, deps.db.kysely, venueId, deps.now()),
  ]);
  const placements = placeQueue(rows, venue, paces);
  return {
    venueId,
    waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
    entries: rows.map((row) => toHostEntry(row, placements.get(row.id) ?? NOT_WAITING)),
  };
}

/** An entry as staff see it, placed in its queue. */
export async function staffEntryResponse(deps: QueueDeps, row: EntryRow, created?: boolean): Promise<HostEntryResponse> {
  const venue = await getVenue(deps.db.kysely, row.venue_id);
  const placement = await placeEntry(deps, row, venue);
  const answer: HostEntryResponse = { entry: toHostEntry(row, placement) };
  if (created !== undefined) answer.created = created;
  return answer;
}

/** A walk-in added at the door: origin label Host, allowed while remote joins are locked. */
export async function addWalkIn(deps: QueueDeps, venueId: string, body: HostCreateEntryBody): Promise<HostEntryResponse> {
  const result = await joinWaitlist(
    deps,
    venueId,
    {
      customer: body.customer,
      partySize: body.partySize,
      note: body.note,
      lang: body.lang,
      originLabel: ORIGIN_LABEL_HOST,
      whatsappOptIn: body.whatsappOptIn,
    },
    { priority: body.priority ?? false, ignoreLock: true, byStaff: true },
  );
  return staffEntryResponse(deps, result.entry, result.created);
}

/** The entry of this venue, or 404 (an entry of another venue is unknown here too). */
export async function findVenueEntry(deps: QueueDeps, venueId: string, entryId: string): Promise<EntryRow> {
  const entry = await repo.findEntryById(deps.db.kysely, entryId);
  if (!entry || entry.venue_id !== venueId) throw new AppError(ErrorCode.NOT_FOUND, 'No such entry in this venue.');
  return entry;
}

export async function callParty(deps: QueueDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  return staffEntryResponse(deps, await callEntry(deps, entry));
}

export async function seatParty(deps: QueueDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  return staffEntryResponse(deps, await seatEntry(deps, entry));
}

/** NoShow and Host end the party with `cancel`; Removed takes it off the list with `remove`. */
export async function cancelParty(deps: QueueDeps, venueId: string, entryId: string, body: HostCancelBody): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  const transition = body.reason === 'Removed' ? 'remove' : 'cancel';
  assertTransition(transition, entry.status);
  await endEntry(deps, entry, transition, body.reason);
  const after = await repo.findEntryById(deps.db.kysely, entry.id);
  return staffEntryResponse(deps, after ?? entry);
}

export async function editParty(deps: QueueDeps, venueId: string, entryId: string, edit: HostEntryPatch): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  const venue = await getVenue(deps.db.kysely, venueId);
  return staffEntryResponse(deps, await editEntry(deps, entry, edit, venue.maxPartySize));
}

/** The console's undo (entry-actions.service.ts restoreEntry). */
export async function restoreParty(deps: QueueDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  return staffEntryResponse(deps, await restoreEntry(deps, entry));
}

export async function putWaitlistState(
  deps: QueueDeps,
  venueId: string,
  state: { active: boolean; locked: boolean },
): Promise<WaitlistStateResponse> {
  await getVenue(deps.db.kysely, venueId);
  await setWaitlistState(deps, venueId, state);
  return { waitlist: { active: state.active, locked: state.locked } };
}
