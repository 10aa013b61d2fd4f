import { type CancelReason, ErrorCode, RESTORE_WINDOW_MS, type StatusResponse, bandOf } from '@vez/contract';
import type { EntryRow } from '../../db/types.js';
import { runWriteTransaction } from '../../db/write-batch.js';
import { AppError } from '../../lib/app-error.js';
import { assertTransition, eventOf, refusalOf, stateAfter } from './entry-state.js';
import { getVenue } from '../venues/venues.service.js';
import { afterQueueMoved } from './getting-close.service.js';
import { endsHoldsItself, holdEndsAt } from './hold-window.js';
import { learnFromSeat, recordFloorEvent } from '../estimate/index.js';
import type { Venue } from '../venues/venue.js';
import { findEntryAtVenue, getStatus } from './position.service.js';
import type { QueueDeps } from './queue-deps.js';
import { publishQueueEvent } from './queue-events.js';
import * as repo from './entries.repository.js';
import { claimStaffSend } from './staff-sends.js';

/**
 * Every action on an existing entry, each one a transition of entry-state.ts: checked there,
 * written here, announced with the transition's event.
 */

const NO_LONGER_ON_LIST = 'You are no longer on the waitlist.';

/** The diner leaves (cancel reason Customer). A shared link may not do this. */
export async function leaveWaitlist(deps: QueueDeps, waitlistId: string, venueId: string): Promise<StatusResponse> {
  const found = await findEntryAtVenue(deps, waitlistId, venueId);
  if (found.isShared) throw new AppError(ErrorCode.SHARED_LINK_READ_ONLY);
  await endEntry(deps, found.entry, 'leave', 'Customer');
  return getStatus(deps, waitlistId, venueId);
}

/**
 * Ends an open entry (`leave` by the diner, `cancel` or `remove` by staff). A race lost to another
 * ending (the entry ended meanwhile) answers FAILED_TO_LEAVE_WAITLIST.
 */
export async function endEntry(
  deps: QueueDeps,
  entry: EntryRow,
  transition: 'leave' | 'cancel' | 'remove',
  reason: CancelReason,
): Promise<void> {
  assertTransition(transition, entry.status);
  const now = deps.now();
  const venue = await getVenue(deps.db.kysely, entry.venue_id);
  await runWriteTransaction(deps.db, async (trx) => {
    if (!(await repo.cancelOpenEntry(trx, entry.id, reason, now))) {
      throw new AppError(ErrorCode.FAILED_TO_LEAVE_WAITLIST, NO_LONGER_ON_LIST);
    }
    // A called party's table is free again; a waiting one that left teaches how often parties give up.
    const gaveUp = entry.status === 'active' && reason === 'Customer';
    await recordFloorEvent(trx, deps.db.dialect, venue, gaveUp ? 'gaveUp' : 'end', entry, now);
  });
  publishQueueEvent(deps, eventOf(transition), entry.venue_id, entry.id, { byParty: transition === 'leave' });
  await afterQueueMoved(deps, entry.venue_id);
}

/**
 * Ends every party still waiting or called that joined before `joinedBefore` (reason `Expired`):
 * nobody waits a day, and a forgotten entry must not keep its personal data for ever
 * (docs/product.md, personal data). Each one is announced like a cancel, so pages, consoles and
 * kept answers follow.
 */
export async function expireOpenEntries(deps: QueueDeps, joinedBefore: number, now = deps.now()): Promise<number> {
  const expired = await repo.expireOpenEntriesJoinedBefore(deps.db.kysely, joinedBefore, 'Expired' satisfies CancelReason, now);
  for (const entry of expired) publishQueueEvent(deps, eventOf('expire'), entry.venue_id, entry.id);
  return expired.length;
}

/**
 * Staff call a party; the SMS "your turn" is queued in the same transaction. Calling a called party
 * calls it again (docs/product.md §8): a new message, the hold window starts again, `calls` goes up.
 */
export async function callEntry(deps: QueueDeps, entry: EntryRow): Promise<EntryRow> {
  assertTransition('call', entry.status);
  const venue = await getVenue(deps.db.kysely, entry.venue_id);
  const now = deps.now();
  const change = {
    status: stateAfter('call', entry),
    notified_at: now,
    calls: entry.calls + 1,
    hold_until: holdEndsAt(venue.settings, now),
    hold_extended: 0,
  };
  const called: EntryRow = { ...entry, ...change };
  await runWriteTransaction(deps.db, async (trx) => {
    // A call sends the call text again: bounded like any staff send (staff-sends.ts). A walk-in
    // without a phone is called out at the door: nothing is sent, nothing counted (docs/product.md §6).
    if (entry.phone !== null) await claimStaffSend(deps, trx, entry);
    if (!(await repo.updateOpenEntry(trx, entry.id, change))) throw refusalOf('call');
    await deps.hooks?.run('call', trx, called);
    await recordFloorEvent(trx, deps.db.dialect, venue, 'call', called, now);
  });
  publishQueueEvent(deps, eventOf('call'), entry.venue_id, entry.id);
  await afterQueueMoved(deps, entry.venue_id);
  return called;
}

/** Staff seat a waiting or called party; the venue's seating pace learns from it. */
export async function seatEntry(deps: QueueDeps, entry: EntryRow): Promise<EntryRow> {
  assertTransition('seat', entry.status);
  const now = deps.now();
  const seated: EntryRow = { ...entry, status: stateAfter('seat', entry), seated_at: now, ended_at: now };
  const venue = await getVenue(deps.db.kysely, entry.venue_id);
  await runWriteTransaction(deps.db, async (trx) => {
    await repo.updateEntry(trx, entry.id, { status: seated.status, seated_at: now, ended_at: now });
    await deps.hooks?.run('seat', trx, seated);
    await recordFloorEvent(trx, deps.db.dialect, venue, 'seat', entry, now);
    // The estimator learns from every seating (apps/server/src/modules/estimate/README.md).
    await learnFromSeat(trx, entry, now);
  });
  // The event voids the kept pace with the venue's positions (queue-caches.ts).
  publishQueueEvent(deps, eventOf('seat'), entry.venue_id, entry.id);
  await afterQueueMoved(deps, entry.venue_id);
  return seated;
}

export interface EntryEdit {
  partySize?: number | undefined;
  /** Null or empty clears the note. */
  note?: string | null | undefined;
  priority?: boolean | undefined;
}

/** Staff change an open entry's party size, note or priority. */
export async function editEntry(deps: QueueDeps, entry: EntryRow, edit: EntryEdit, maxPartySize: number): Promise<EntryRow> {
  assertTransition('edit', entry.status);
  if (edit.partySize !== undefined && (edit.partySize < 1 || edit.partySize > maxPartySize)) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, `Party size must be between 1 and ${maxPartySize}.`, 'partySize');
  }
  const patch: Partial<EntryRow> = {};
  if (edit.partySize !== undefined) Object.assign(patch, { party_size: edit.partySize, band: bandOf(edit.partySize) });
  if (edit.note !== undefined) patch.note = edit.note?.trim() || null;
  if (edit.priority !== undefined) patch.priority = edit.priority ? 1 : 0;
  await repo.updateEntry(deps.db.kysely, entry.id, patch);
  publishQueueEvent(deps, eventOf('edit'), entry.venue_id, entry.id);
  await afterQueueMoved(deps, entry.venue_id);
  return { ...entry, ...patch };
}

/** Staff endings an undo may reverse; a diner's own leave (Customer) is theirs, not ours. */
const UNDOABLE_REASONS = new Set(['Host', 'NoShow', 'Removed']);

/**
 * The console's undo: puts a party seated or taken off less than RESTORE_WINDOW_MS ago back where
 * it was (its join time and priority keep its place; a called party stays called). The seating
 * pace learnt from an undone seat stays: one sample barely moves the average.
 */
export async function restoreEntry(deps: QueueDeps, entry: EntryRow): Promise<EntryRow> {
  assertTransition('restore', entry.status);
  const undoable = entry.status === 'seated' || UNDOABLE_REASONS.has(entry.cancel_reason ?? '');
  if (!undoable || entry.ended_at === null) throw refusalOf('restore');
  if (deps.now() - entry.ended_at > RESTORE_WINDOW_MS) {
    throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, `Too late to undo: a party can be put back within ${RESTORE_WINDOW_MS / 1000} seconds.`);
  }
  const status = stateAfter('restore', entry) as 'active' | 'called';
  if (!(await repo.reopenEntry(deps.db.kysely, entry, status))) {
    throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, 'This party changed meanwhile; reload the queue.');
  }
  publishQueueEvent(deps, eventOf('restore'), entry.venue_id, entry.id);
  return (await repo.findEntryById(deps.db.kysely, entry.id)) ?? entry;
}

/**
 * Ends the called parties whose hold window ran out, at venues that mark no-shows themselves
 * (`autoNoShow`, docs/product.md §8), and tells each one, in the same transaction. Every instance
 * may run it at once: the conditional update lets exactly one of them end a given party.
 */
export async function endExpiredHolds(deps: QueueDeps, now = deps.now()): Promise<number> {
  const due = await repo.findHoldsOverBefore(deps.db.kysely, now);
  let ended = 0;
  const venues = new Map<string, Venue>();
  const autoNoShow = (venueId: string) => {
    const venue = venues.get(venueId);
    return venue !== undefined && endsHoldsItself(venue.settings);
  };
  for (const entry of due) {
    if (!venues.has(entry.venue_id)) venues.set(entry.venue_id, await getVenue(deps.db.kysely, entry.venue_id));
    const venue = venues.get(entry.venue_id)!;
    if (!endsHoldsItself(venue.settings)) continue;
    const mine = await runWriteTransaction(deps.db, async (trx) => {
      if (!(await repo.endHoldIfOver(trx, entry.id, now))) return false;
      await recordFloorEvent(trx, deps.db.dialect, venue, 'end', entry, now);
      await deps.hooks?.run('noShow', trx, { ...entry, status: 'cancelled', cancel_reason: 'NoShow', cancelled_at: now, ended_at: now });
      return true;
    });
    if (!mine) continue;
    ended += 1;
    publishQueueEvent(deps, eventOf('holdExpired'), entry.venue_id, entry.id);
  }
  for (const venueId of new Set(due.map((e) => e.venue_id))) if (autoNoShow(venueId)) await afterQueueMoved(deps, venueId);
  return ended;
}
