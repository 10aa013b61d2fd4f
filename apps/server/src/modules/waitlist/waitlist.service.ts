import {
  type CancelReason,
  CancelBody,
  CreateWaitlistBody,
  ErrorCode,
  type Language,
  type PositionResponse,
  REPEAT_JOIN_SMS_INTERVAL_MS,
  SECTION_NOTE_PREFIX,
  type StatusResponse,
  type VenueChannelEvent,
  bandOf,
  isEntryId,
  messages,
} from '@vez/contract';
import type { Db } from '../../db/connect.js';
import { runWriteTransaction } from '../../db/write-batch.js';
import type { EntryRow, PaceRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { isJoinProofOf, newJoinProof } from '../../lib/join-proof.js';
import { toE164 } from '../../lib/phone.js';
import { parseInput } from '../../lib/validate.js';
import type { EventBus } from '../../plugins/bus.js';
import { type Venue, canTextPhone, smsCountriesText } from '../venues/venue.js';
import { updateVenue } from '../venues/venues.repository.js';
import { assertVenueId, getVenue } from '../venues/venues.service.js';
import { type Placement, toPositionEntry } from './entry-view.js';
import { findPaceKept, forgetPace } from './pace-cache.js';
import type { PositionCache } from './position-cache.js';
import { VENUE_WIDE_BAND, estimateMinutes, nextPace } from './pace.js';
import * as repo from './waitlist.repository.js';

export interface WaitlistDeps {
  db: Db;
  bus: EventBus;
  now: () => number;
  /** Work to do in the call's transaction (the SMS "your turn" is queued here). */
  onCalled?: (trx: Db['kysely'], entry: EntryRow) => Promise<void>;
  /** Serialised position answers kept until the venue changes (the app wires one to its bus). */
  positions?: PositionCache;
}

/** Work to do inside a join's transaction (the durable message queue hooks in here). */
export type JoinHook = (trx: Db['kysely'], entry: EntryRow, venue: Venue) => Promise<void>;

export interface JoinResult {
  entry: EntryRow;
  created: boolean;
  /** Absent for a diner when the venue hides positions (decisions §4); staff always get it. */
  globalPos?: number;
  /** A new remote join's proof, for the joining browser only (decisions §3). */
  joinProof?: string;
}

function publish(deps: WaitlistDeps, type: VenueChannelEvent['type'], venueId: string, entryId?: string): void {
  const event: VenueChannelEvent = { type, venueId, at: new Date(deps.now()).toISOString() };
  if (entryId) event.entryId = entryId;
  deps.bus.publish(event);
}

/** Checks of spec section 5 that depend on the venue's settings; returns the section, if any. */
function checkAgainstVenue(venue: Venue, body: CreateWaitlistBody): string | null {
  if (body.partySize > venue.maxPartySize) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, `Party size must be between 1 and ${venue.maxPartySize}.`, 'partySize');
  }
  if (venue.settings.emailRequired && !body.customer.email) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, messages.emailRequired, 'customer.email');
  }
  const note = body.note?.trim() ?? '';
  if (venue.settings.noteMode !== 'note' && note === '') {
    throw new AppError(ErrorCode.VALIDATION_FAILED, messages.section, 'note');
  }
  if (venue.settings.sectionMode !== 'required') return null;
  const section = venue.sections.find(
    (s) =>
      note === `${SECTION_NOTE_PREFIX} ${s}` ||
      note.startsWith(`${SECTION_NOTE_PREFIX} ${s}\n`) ||
      note.startsWith(`${SECTION_NOTE_PREFIX} ${s} `),
  );
  if (!section) throw new AppError(ErrorCode.VALIDATION_FAILED, messages.section, 'section');
  return section;
}

function assertOpen(active: boolean, locked: boolean): void {
  if (!active) throw new AppError(ErrorCode.WAITLIST_STATUS_NOT_ACTIVE);
  if (locked) throw new AppError(ErrorCode.WAITLIST_LOCKED);
}

export interface JoinOptions {
  originLabel?: string;
  priority?: boolean;
  /** Staff add walk-ins at the door while remote joins are locked. */
  ignoreLock?: boolean;
  /**
   * Staff at the door (decisions §3): past the venue's cap, any country's phone (the SMS then
   * stays unsent), and a repeat join answers the open entry, which staff see in the queue anyway.
   */
  byStaff?: boolean;
  onJoined?: JoinHook;
  /** Work in a repeat join's transaction when the link goes again (at most once a minute). */
  onRepeat?: JoinHook;
}

type JoinOutcome = { entry: EntryRow; created: boolean; globalPos?: number; joinProof?: string } | { alreadyOnList: true };

/**
 * Joins a venue's waitlist. One transaction per join, under the venue's row lock: the ticket
 * number is contiguous, and a repeat join with the same phone while its entry is open makes no
 * second entry. It answers that entry only to staff or to the browser that shows the first join's
 * proof; anyone else learns only that the party is on the list, and the link goes again by SMS to
 * the entry's own phone (decisions §3).
 */
export async function joinWaitlist(deps: WaitlistDeps, venueId: string, input: unknown, options: JoinOptions = {}): Promise<JoinResult> {
  assertVenueId(venueId);
  const body = parseInput(CreateWaitlistBody, input);
  if (body.venue !== venueId) throw new AppError(ErrorCode.INVALID_VENUE, undefined, 'venue');
  // Usually from the venue cache: a read from the store here would wait behind the write batch
  // holding SQLite's only connection, and joins would reach the batch one at a time.
  const venue = await getVenue(deps.db.kysely, venueId);
  assertOpen(venue.waitlistActive, venue.waitlistLocked && !options.ignoreLock);
  const section = checkAgainstVenue(venue, body);
  const phone = toE164(body.customer.phone);
  if (!phone) throw new AppError(ErrorCode.VALIDATION_FAILED, messages.phone, 'customer.phone');
  if (!options.byStaff && !canTextPhone(venue, phone)) {
    throw new AppError(
      ErrorCode.PHONE_COUNTRY_NOT_ALLOWED,
      `This venue sends its waitlist link by SMS only to phone numbers from ${smsCountriesText(venue)}.`,
      'customer.phone',
    );
  }

  const now = deps.now();
  // Group commit on SQLite: joins arriving together share one durable COMMIT (db/write-batch.ts).
  const result = await runWriteTransaction(deps.db, async (trx): Promise<JoinOutcome> => {
    const locked = await repo.lockVenueForJoin(trx, venueId, deps.db.dialect);
    if (!locked) throw new AppError(ErrorCode.VENUE_INFO_NOT_FOUND);
    assertOpen(locked.waitlist_active === 1, locked.waitlist_locked === 1 && !options.ignoreLock);
    const existing = await repo.findOpenEntryByPhone(trx, venueId, phone);
    if (existing) {
      if (options.byStaff || isJoinProofOf(body.joinProof, existing.join_proof_hash)) return { entry: existing, created: false };
      if (await repo.markLinkResent(trx, existing.id, now, REPEAT_JOIN_SMS_INTERVAL_MS)) {
        await options.onRepeat?.(trx, { ...existing, link_resent_at: now }, venue);
      }
      return { alreadyOnList: true };
    }
    const cap = venue.settings.maxWaitingParties;
    if (!options.byStaff && cap !== null && Number(locked.waiting ?? 0) >= cap) throw new AppError(ErrorCode.WAITLIST_FULL);
    const proof = options.byStaff ? undefined : newJoinProof();
    const entry: EntryRow = {
      id: newEntryId(),
      share_id: newEntryId(),
      venue_id: venueId,
      seq: locked.next_seq,
      status: 'active',
      priority: options.priority ? 1 : 0,
      party_size: body.partySize,
      band: bandOf(body.partySize),
      name: body.customer.name.trim().replace(/\s+/g, ' '),
      phone,
      email: body.customer.email || null,
      note: body.note?.trim() || null,
      section,
      origin_label: options.originLabel ?? body.origin.label,
      lang: body.lang ?? 'pt',
      created_at: now,
      notified_at: null,
      seated_at: null,
      cancelled_at: null,
      cancel_reason: null,
      ended_at: null,
      erased_at: null,
      join_proof_hash: proof?.hash ?? null,
      link_resent_at: null,
    };
    await repo.insertEntry(trx, entry);
    await repo.advanceVenueSeq(trx, venueId, locked.next_seq + 1);
    await options.onJoined?.(trx, entry, venue);
    // The newest ticket: everyone waiting at its priority or above is ahead, read under the lock.
    const globalPos = await repo.placeOfNewest(trx, venueId, entry.priority);
    return { entry, created: true, globalPos, ...(proof ? { joinProof: proof.proof } : {}) };
  });
  // Committed (with its SMS, if one was due): the caller learns no more than this.
  if ('alreadyOnList' in result) throw new AppError(ErrorCode.ALREADY_ON_WAITLIST);
  if (result.created) publish(deps, 'add', venueId, result.entry.id);
  const proof = result.joinProof ? { joinProof: result.joinProof } : {};
  if (venue.settings.hidePosition && !options.byStaff) return { entry: result.entry, created: result.created, ...proof };
  // A repeat join answers the existing entry's place as it stands now.
  const globalPos = result.globalPos ?? (await placeEntry(deps, result.entry, venue)).globalPos;
  return { entry: result.entry, created: result.created, globalPos, ...proof };
}

/** Where an entry stands: places ahead (global and in its band) and the estimate. */
export async function placeEntry(deps: WaitlistDeps, entry: EntryRow, venue: Venue): Promise<Placement> {
  if (entry.status !== 'active') return { globalPos: 0, pos: 0, estimatedTime: null };
  const db = deps.db.kysely;
  const advanced = venue.settings.operationMode === 'advanced';
  const [ahead, aheadInBand, pace] = await Promise.all([
    repo.countWaitingAhead(db, entry),
    advanced ? repo.countWaitingAhead(db, entry, entry.band) : Promise.resolve(undefined),
    findPaceKept(db, venue.id),
  ]);
  return placementOf(entry, venue, ahead, aheadInBand ?? ahead, pace);
}

/** The placement from the counts of parties ahead (all, and in the entry's band) and the pace. */
function placementOf(entry: EntryRow, venue: Venue, ahead: number, aheadInBand: number, pace: PaceRow[]): Placement {
  if (entry.status !== 'active') return { globalPos: 0, pos: 0, estimatedTime: null };
  const advanced = venue.settings.operationMode === 'advanced';
  const globalPos = ahead + 1;
  const pos = advanced ? aheadInBand + 1 : globalPos;
  const bandPace = advanced ? pace.find((p) => p.band === entry.band && p.samples > 0) : undefined;
  const venuePace = pace.find((p) => p.band === VENUE_WIDE_BAND);
  const estimatedTime = bandPace ? estimateMinutes(bandPace, pos) : estimateMinutes(venuePace, globalPos);
  return { globalPos, pos, estimatedTime };
}

function assertEntryId(id: string): void {
  if (!isEntryId(id)) throw new AppError(ErrorCode.INVALID_WAITLISTID_FORMAT);
}

/** The entry read through its own id or through its read-only share id. */
async function findEntry(deps: WaitlistDeps, id: string): Promise<{ entry: EntryRow; isShared: boolean } | undefined> {
  const own = await repo.findEntryById(deps.db.kysely, id);
  if (own) return { entry: own, isShared: false };
  const shared = await repo.findEntryByShareId(deps.db.kysely, id);
  return shared ? { entry: shared, isShared: true } : undefined;
}

export async function getPosition(deps: WaitlistDeps, waitlistId: string, lang: Language = 'pt'): Promise<PositionResponse> {
  assertEntryId(waitlistId);
  // The hottest read of the product: one query for the entry and its counts, venue and pace kept.
  const db = deps.db.kysely;
  const own = await repo.findPlacedEntry(db, 'id', waitlistId);
  const placed = own ?? (await repo.findPlacedEntry(db, 'share_id', waitlistId));
  if (!placed) throw new AppError(ErrorCode.FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION);
  const { ahead, ...entry } = placed;
  const found = { entry: entry as EntryRow, isShared: !own };
  const [venue, pace] = await Promise.all([getVenue(db, entry.venue_id), findPaceKept(db, entry.venue_id)]);
  // Advanced mode also places the party inside its table-size band: one more count.
  const advanced = venue.settings.operationMode === 'advanced' && entry.status === 'active';
  const aheadInBand = advanced ? await repo.countWaitingAhead(db, entry, entry.band) : ahead;
  const placement = placementOf(found.entry, venue, ahead, aheadInBand, pace);
  const hidePosition = venue.settings.hidePosition;
  const operationMode = venue.settings.operationMode;
  return {
    waitlist: toPositionEntry(found.entry, placement, { hidePosition, operationMode, isShared: found.isShared, lang }),
    waitlistSettings: { hiddenCustomerPosition: hidePosition, operationMode },
  };
}

/** The position answer, serialised: kept from an earlier read while nothing changed at the venue. */
export async function getPositionJson(deps: WaitlistDeps, waitlistId: string, lang: Language = 'pt'): Promise<string> {
  const cache = deps.positions;
  // Own and share ids are distinct keys: each keeps its own view.
  const key = lang + waitlistId;
  const kept = cache?.recall(key);
  if (kept !== undefined) return kept;
  const since = cache?.mark() ?? 0;
  const answer = await getPosition(deps, waitlistId, lang);
  const json = JSON.stringify(answer);
  cache?.keep(key, answer.waitlist.venue, json, since);
  return json;
}

async function findEntryAtVenue(deps: WaitlistDeps, waitlistId: string, venueId: string) {
  assertEntryId(waitlistId);
  assertVenueId(venueId);
  const found = await findEntry(deps, waitlistId);
  if (!found) throw new AppError(ErrorCode.FAILED_TO_GET_WAITLIST_STATUS);
  if (found.entry.venue_id !== venueId) throw new AppError(ErrorCode.INVALID_VENUE);
  return found;
}

export async function getStatus(deps: WaitlistDeps, waitlistId: string, venueId: string): Promise<StatusResponse> {
  const { entry } = await findEntryAtVenue(deps, waitlistId, venueId);
  return {
    status: entry.status,
    cancelReason: entry.cancel_reason,
    notifiedAt: entry.notified_at === null ? null : new Date(entry.notified_at).toISOString(),
    seatedAt: entry.seated_at === null ? null : new Date(entry.seated_at).toISOString(),
  };
}

/** The diner leaves (spec: cancel reason Customer). A shared link may not do this. */
export async function leaveWaitlist(deps: WaitlistDeps, waitlistId: string, venueId: string, input: unknown): Promise<StatusResponse> {
  const found = await findEntryAtVenue(deps, waitlistId, venueId);
  parseInput(CancelBody, input);
  if (found.isShared) throw new AppError(ErrorCode.SHARED_LINK_READ_ONLY);
  await cancelEntry(deps, found.entry, 'Customer');
  return getStatus(deps, waitlistId, venueId);
}

/** Ends an open entry with a reason; an entry that already ended cannot be cancelled. */
export async function cancelEntry(
  deps: WaitlistDeps,
  entry: EntryRow,
  reason: CancelReason,
  /** `remove` when staff take the entry off the list (reason Removed); otherwise `cancel`. */
  event: 'cancel' | 'remove' = 'cancel',
): Promise<void> {
  if (entry.status !== 'active' && entry.status !== 'called') {
    throw new AppError(ErrorCode.FAILED_TO_LEAVE_WAITLIST, 'You are no longer on the waitlist.');
  }
  const now = deps.now();
  if (!(await repo.cancelOpenEntry(deps.db.kysely, entry.id, reason, now))) {
    throw new AppError(ErrorCode.FAILED_TO_LEAVE_WAITLIST, 'You are no longer on the waitlist.');
  }
  publish(deps, event, entry.venue_id, entry.id);
}

/**
 * Ends every party still waiting or called that joined before `joinedBefore` (reason `Expired`):
 * nobody waits a day, and a forgotten entry must not keep its personal data for ever (decisions §3).
 * Each one is announced like a cancel, so pages, consoles and kept answers follow.
 */
export async function expireOpenEntries(deps: WaitlistDeps, joinedBefore: number, now = deps.now()): Promise<number> {
  const expired = await repo.expireOpenEntriesJoinedBefore(deps.db.kysely, joinedBefore, 'Expired' satisfies CancelReason, now);
  for (const entry of expired) publish(deps, 'cancel', entry.venue_id, entry.id);
  return expired.length;
}

/** The host calls a waiting party. */
export async function callEntry(deps: WaitlistDeps, entry: EntryRow): Promise<EntryRow> {
  if (entry.status !== 'active') throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE);
  const now = deps.now();
  const called: EntryRow = { ...entry, status: 'called', notified_at: now };
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.updateEntry(trx, entry.id, { status: 'called', notified_at: now });
    await deps.onCalled?.(trx, called);
  });
  publish(deps, 'call', entry.venue_id, entry.id);
  return called;
}

/** The host seats a waiting or called party; the venue's seating pace learns from it. */
export async function seatEntry(deps: WaitlistDeps, entry: EntryRow): Promise<EntryRow> {
  if (entry.status !== 'active' && entry.status !== 'called') throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE);
  const now = deps.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.updateEntry(trx, entry.id, { status: 'seated', seated_at: now, ended_at: now });
    const paces = await repo.findPace(trx, entry.venue_id);
    for (const band of [VENUE_WIDE_BAND, entry.band]) {
      const previous = paces.find((p) => p.band === band);
      await repo.upsertPace(trx, nextPace(previous, entry.venue_id, band, now));
    }
  });
  forgetPace(entry.venue_id);
  publish(deps, 'seat', entry.venue_id, entry.id);
  return { ...entry, status: 'seated', seated_at: now, ended_at: now };
}

export interface EntryEdit {
  partySize?: number;
  /** Null or empty clears the note. */
  note?: string | null;
  priority?: boolean;
}

/** Staff change an open entry's party size, note or priority: event `update`. */
export async function editEntry(deps: WaitlistDeps, entry: EntryRow, edit: EntryEdit, maxPartySize: number): Promise<EntryRow> {
  if (entry.status !== 'active' && entry.status !== 'called') throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE);
  if (edit.partySize !== undefined && (edit.partySize < 1 || edit.partySize > maxPartySize)) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, `Party size must be between 1 and ${maxPartySize}.`, 'partySize');
  }
  const patch: Partial<EntryRow> = {};
  if (edit.partySize !== undefined) Object.assign(patch, { party_size: edit.partySize, band: bandOf(edit.partySize) });
  if (edit.note !== undefined) patch.note = edit.note?.trim() || null;
  if (edit.priority !== undefined) patch.priority = edit.priority ? 1 : 0;
  await repo.updateEntry(deps.db.kysely, entry.id, patch);
  publish(deps, 'update', entry.venue_id, entry.id);
  return { ...entry, ...patch };
}

/** Staff open (active), lock (no remote joins) or close the waitlist: event `update` without an entry. */
export async function setWaitlistState(deps: WaitlistDeps, venueId: string, state: { active: boolean; locked: boolean }): Promise<void> {
  await updateVenue(deps.db.kysely, venueId, {
    waitlist_active: state.active ? 1 : 0,
    waitlist_locked: state.locked ? 1 : 0,
    updated_at: deps.now(),
  });
  publish(deps, 'update', venueId);
}

/** A venue-wide change that diners may see (settings, theme): event `update` without an entry. */
export function announceVenueUpdate(deps: WaitlistDeps, venueId: string): void {
  publish(deps, 'update', venueId);
}
