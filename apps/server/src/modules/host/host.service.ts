import {
  CREATE_DATA_ORIGIN,
  ErrorCode,
  HostCancelBody,
  HostCreateEntryBody,
  type HostEntryResponse,
  HostEntryPatch,
  type HostQueueResponse,
  ORIGIN_LABEL_HOST,
  ORIGIN_LABEL_WIDGET,
  WaitlistStateBody,
  type WaitlistStateResponse,
  isEntryId,
} from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { parseInput } from '../../lib/validate.js';
import { placeQueue } from '../realtime/queue-placement.js';
import { getVenue } from '../venues/venues.service.js';
import * as waitlistRepo from '../waitlist/waitlist.repository.js';
import {
  type JoinHook,
  type WaitlistDeps,
  callEntry,
  cancelEntry,
  editEntry,
  joinWaitlist,
  placeEntry,
  seatEntry,
  setWaitlistState,
} from '../waitlist/waitlist.service.js';
import { toHostEntry } from './host-entry-view.js';

/** The live queue: one query for the open entries, positions computed in memory. */
export async function getQueue(deps: WaitlistDeps, venueId: string): Promise<HostQueueResponse> {
  const venue = await getVenue(deps.db.kysely, venueId);
  const [rows, paces] = await Promise.all([
    waitlistRepo.listOpenEntries(deps.db.kysely, venueId),
    waitlistRepo.findPace(deps.db.kysely, venueId),
  ]);
  const placements = placeQueue(rows, venue, paces);
  return {
    venueId,
    waitlist: { active: venue.waitlistActive, locked: venue.waitlistLocked },
    entries: rows.map((row) => toHostEntry(row, placements.get(row.id) ?? { globalPos: 0, pos: 0, estimatedTime: null })),
  };
}

async function entryResponse(deps: WaitlistDeps, row: EntryRow, created?: boolean): Promise<HostEntryResponse> {
  const venue = await getVenue(deps.db.kysely, row.venue_id);
  const placement = await placeEntry(deps, row, venue);
  const answer: HostEntryResponse = { entry: toHostEntry(row, placement) };
  if (created !== undefined) answer.created = created;
  return answer;
}

/** A walk-in added at the door: origin label Host, allowed while remote joins are locked. */
export async function addWalkIn(deps: WaitlistDeps, venueId: string, input: unknown, onJoined?: JoinHook): Promise<HostEntryResponse> {
  const body = parseInput(HostCreateEntryBody, input);
  const dinerBody = {
    customer: body.customer,
    venue: venueId,
    origin: { label: ORIGIN_LABEL_WIDGET },
    partySize: body.partySize,
    benefits: '',
    logs: { actionType: 'Add' },
    data: { origin: CREATE_DATA_ORIGIN },
    sendSms: true,
    note: body.note,
    lang: body.lang,
  };
  const result = await joinWaitlist(deps, venueId, dinerBody, {
    originLabel: ORIGIN_LABEL_HOST,
    priority: body.priority ?? false,
    ignoreLock: true,
    byStaff: true,
    ...(onJoined ? { onJoined } : {}),
  });
  return entryResponse(deps, result.entry, result.created);
}

/** The entry of this venue, or 404 (an entry of another venue is unknown here too). */
export async function findVenueEntry(deps: WaitlistDeps, venueId: string, entryId: string): Promise<EntryRow> {
  if (!isEntryId(entryId)) throw new AppError(ErrorCode.INVALID_WAITLISTID_FORMAT);
  const entry = await waitlistRepo.findEntryById(deps.db.kysely, entryId);
  if (!entry || entry.venue_id !== venueId) throw new AppError(ErrorCode.NOT_FOUND, 'No such entry in this venue.');
  return entry;
}

export async function callParty(deps: WaitlistDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  return entryResponse(deps, await callEntry(deps, entry));
}

export async function seatParty(deps: WaitlistDeps, venueId: string, entryId: string): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  return entryResponse(deps, await seatEntry(deps, entry));
}

/** NoShow and Host publish `cancel`; Removed publishes `remove`. */
export async function cancelParty(deps: WaitlistDeps, venueId: string, entryId: string, input: unknown): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  const { reason } = parseInput(HostCancelBody, input);
  if (entry.status !== 'active' && entry.status !== 'called') throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE);
  await cancelEntry(deps, entry, reason, reason === 'Removed' ? 'remove' : 'cancel');
  const after = await waitlistRepo.findEntryById(deps.db.kysely, entry.id);
  return entryResponse(deps, after ?? entry);
}

export async function editParty(deps: WaitlistDeps, venueId: string, entryId: string, input: unknown): Promise<HostEntryResponse> {
  const entry = await findVenueEntry(deps, venueId, entryId);
  const edit = parseInput(HostEntryPatch, input);
  const venue = await getVenue(deps.db.kysely, venueId);
  return entryResponse(deps, await editEntry(deps, entry, edit, venue.maxPartySize));
}

export async function putWaitlistState(deps: WaitlistDeps, venueId: string, input: unknown): Promise<WaitlistStateResponse> {
  const state = parseInput(WaitlistStateBody, input);
  await getVenue(deps.db.kysely, venueId);
  await setWaitlistState(deps, venueId, state);
  return { waitlist: state };
}
