import { ErrorCode, type Language, REPEAT_JOIN_SMS_INTERVAL_MS, SECTION_NOTE_PREFIX, bandOf, messages, readPhone } from '@vez/contract';
import { runWriteTransaction } from '../../db/write-batch.js';
import type { EntryRow } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { newEntryId } from '../../lib/ids.js';
import { isJoinProofOf, newJoinProof } from '../../lib/join-proof.js';
import { type Venue, canTextPhone, smsCountriesText } from '../venues/venue.js';
import { advanceVenueSeq, getVenue, lockVenueForJoin } from '../venues/venues.service.js';
import { eventOf } from './entry-state.js';
import { type Estimate, type FloorSeat, type PaceBook, estimate, quoteOfSeat } from '../estimate/index.js';
import { seatAtJoin } from './join-forecast.js';
import { findPaceOf } from './queue-reads.service.js';
import type { JoinContext } from './change-hooks.js';
import { isGettingClose } from './getting-close.js';
import { placeEntry } from './position.service.js';
import type { QueueDeps } from './queue-deps.js';
import { publishQueueEvent } from './queue-events.js';
import { FRESH_CONVERSATION } from './conversation-fields.js';
import * as repo from './entries.repository.js';
import { countBeforeNewcomer } from './waiting-counts.repository.js';
import { claimStaffSend } from './staff-sends.js';
import { claimIdempotencyKey, findIdempotencyKey, keepIdempotentAnswer, releaseIdempotencyKey } from './idempotency-keys.repository.js';
import { type JoinAnswer, type JoinKey, JoinKeyTaken, answerOfKey } from './join-keys.js';

/** A join, as the route or the console hands it over (already checked against the contract). */
export interface JoinRequest {
  /** No phone (absent or empty) only for a walk-in (docs/product.md §6): no SMS, called by its ticket. */
  customer: { name: string; phone?: string | undefined; email?: string | undefined };
  partySize: number;
  note?: string | undefined;
  lang?: Language | undefined;
  /** Where the party joined: the diner's page (Widget) or the door (Host). */
  originLabel: string;
  /** The proof of this browser's own first join (docs/product.md, repeat joins). */
  joinProof?: string | undefined;
  /** The party agreed to get the venue's messages by WhatsApp (docs/product.md §10); without it, SMS. */
  whatsappOptIn?: boolean | undefined;
}

export interface JoinResult {
  entry: EntryRow;
  created: boolean;
  /** Absent for a diner when the venue hides positions; staff always get it. */
  globalPos?: number;
  /** A new remote join's proof, for the joining browser only. */
  joinProof?: string;
}

/**
 * The wait a party joining now is quoted: what the position page will show it first. The counts of
 * what stands before it are read under the venue's lock (cheap: the kept counts,
 * waiting-counts.repository.ts), so the estimator's own quote, kept in the basis it learns from
 * at the seat (estimator.ts), is exact. A venue that lists its tables quotes the floor's forecast
 * of the newcomer instead (floor.ts), worked out before the write (`seatAtJoin`), never inside it.
 */
function quoteAtJoin(
  before: Awaited<ReturnType<typeof countBeforeNewcomer>>,
  book: PaceBook,
  seat: FloorSeat | null,
  newcomer: Pick<EntryRow, 'band'>,
): Estimate | null {
  const own = estimate(book, newcomer.band, before, true);
  if (!seat) return own;
  // The estimator's quote stays in the basis, for its own learning.
  const quote = quoteOfSeat(seat, book.at);
  return { ...quote, basis: { band: own?.basis?.band ?? null, venue: own?.basis?.venue ?? null, ...(own ? { own: own.time } : {}) } };
}

/** The join rules that depend on the venue's settings (docs/product.md, joining); returns the section, if any. */
function checkAgainstVenue(venue: Venue, body: JoinRequest): string | null {
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

/**
 * The join's phone, stored as E.164 (docs/product.md §15): a phone a party can be reached at, in
 * Brazil a mobile. A diner must give one; a walk-in may not (docs/product.md §6): null, no SMS.
 */
function phoneOfJoin(venue: Venue, body: JoinRequest, options: JoinOptions): string | null {
  const given = body.customer.phone?.trim() ?? '';
  if (given === '' && options.byStaff) return null;
  const reading = readPhone(given);
  if (!reading.ok) {
    throw new AppError(ErrorCode.VALIDATION_FAILED, reading.problem === 'landline' ? messages.mobile : messages.phone, 'customer.phone');
  }
  const phone = reading.phone.e164;
  if (!options.byStaff && !canTextPhone(venue, phone)) {
    throw new AppError(
      ErrorCode.PHONE_COUNTRY_NOT_ALLOWED,
      `This venue sends its waitlist link by SMS only to phone numbers from ${smsCountriesText(venue)}.`,
      'customer.phone',
    );
  }
  return phone;
}

function assertOpen(active: boolean, locked: boolean): void {
  if (!active) throw new AppError(ErrorCode.WAITLIST_STATUS_NOT_ACTIVE);
  if (locked) throw new AppError(ErrorCode.WAITLIST_LOCKED);
}

export interface JoinOptions {
  priority?: boolean;
  /** Staff add walk-ins at the door while remote joins are locked. */
  ignoreLock?: boolean;
  /**
   * Staff at the door (docs/product.md §3): past the venue's cap, any country's phone (the SMS then
   * stays unsent), and a repeat join answers the open entry, which staff see in the queue anyway.
   */
  byStaff?: boolean;
  /** What the join's hooks (change-hooks.ts) may know of the caller (the diner's session), never the request itself. */
  context?: JoinContext;
  /**
   * A remote join's client address, as its keyed hash (docs/decisions/026): the venue takes at most
   * `maxOpen` open parties from it. Absent for staff and for the venue's own kiosk.
   */
  address?: { key: string; maxOpen: number };
  /** The join's `Idempotency-Key` (docs/product.md §3.9, join-keys.ts): claimed in the join's transaction. */
  idempotency?: JoinKey;
}

type JoinOutcome =
  | { entry: EntryRow; created: boolean; globalPos?: number; joinProof?: string }
  | { alreadyOnList: true }
  | { keyTaken: Awaited<ReturnType<typeof findIdempotencyKey>> };

/** The create route's answer to a join. */
export function toJoinAnswer(result: JoinResult): JoinAnswer {
  const body: JoinAnswer['body'] = { _id: result.entry.id, created: result.created };
  if (result.globalPos !== undefined) body.globalPos = result.globalPos;
  if (result.joinProof) body.joinProof = result.joinProof;
  return { status: result.created ? 201 : 200, body };
}

/**
 * A join with an optional `Idempotency-Key` (docs/product.md §3.9): a key seen before answers its
 * first answer again, found only when the join could not go ahead as a new one (its claim was taken,
 * or the join was refused, say the list was locked since), so a plain join reads nothing more.
 */
export async function joinWaitlistOnce(
  deps: QueueDeps,
  venueId: string,
  body: JoinRequest,
  options: JoinOptions & { idempotency?: JoinKey },
): Promise<JoinAnswer> {
  const key = options.idempotency;
  try {
    return toJoinAnswer(await joinWaitlist(deps, venueId, body, options));
  } catch (error) {
    if (!key) throw error;
    if (error instanceof JoinKeyTaken) return answerOfKey(error.kept, key);
    if (!(error instanceof AppError)) throw error;
    const kept = await findIdempotencyKey(deps.db.kysely, key.key);
    if (!kept) throw error;
    return answerOfKey(kept, key);
  }
}

/**
 * Joins a venue's waitlist. One transaction per join, under the venue's row lock: the ticket
 * number is contiguous, and a repeat join with the same phone while its entry is open makes no
 * second entry. It answers that entry only to staff or to the browser that shows the first join's
 * proof; anyone else learns only that the party is on the list, and the link goes again by SMS to
 * the entry's own phone (docs/product.md §3).
 */
export async function joinWaitlist(deps: QueueDeps, venueId: string, body: JoinRequest, options: JoinOptions = {}): Promise<JoinResult> {
  // Usually from the venue cache: a read from the store here would wait behind the write batch
  // holding SQLite's only connection, and joins would reach the batch one at a time.
  const venue = await getVenue(deps.db.kysely, venueId);
  assertOpen(venue.waitlistActive, venue.waitlistLocked && !options.ignoreLock);
  const section = checkAgainstVenue(venue, body);
  const phone = phoneOfJoin(venue, body, options);
  const now = deps.now();
  // The estimator's state, kept between seatings (pace-cache.ts): like the venue, read before the
  // write batch; the counts of what stands before the party are read under the venue's lock.
  const book = await findPaceOf(deps.pace, deps.db.kysely, venueId, now);
  // The floor's forecast of the newcomer at its place in the queue the shared book was made from
  // (docs/decisions/038-one-forecast-per-change.md): CPU work kept out of the write batch, where it
  // would hold SQLite's only connection and every join queued behind it.
  const priority = options.priority ? 1 : 0;
  const placed = await seatAtJoin(book, priority, body.partySize, now);
  // Group commit on SQLite: joins arriving together share one durable COMMIT (db/write-batch.ts).
  const result = await runWriteTransaction(deps.db, async (trx): Promise<JoinOutcome> => {
    const locked = await lockVenueForJoin(trx, venueId, deps.db.dialect);
    if (!locked) throw new AppError(ErrorCode.VENUE_INFO_NOT_FOUND);
    // The key first, under the venue's lock: a join racing with the same key waits here, then finds it.
    const key = options.idempotency;
    if (key && !(await claimIdempotencyKey(trx, { key: key.key, venue_id: venueId, body_hash: key.bodyHash, created_at: now }))) {
      return { keyTaken: await findIdempotencyKey(trx, key.key) };
    }
    assertOpen(locked.waitlist_active === 1, locked.waitlist_locked === 1 && !options.ignoreLock);
    const existing = phone === null ? undefined : await repo.findOpenEntryByPhone(trx, venueId, phone);
    if (existing) {
      // Nothing created: the key is not kept (join-keys.ts).
      if (key) await releaseIdempotencyKey(trx, key.key);
      if (options.byStaff || isJoinProofOf(body.joinProof, existing.join_proof_hash)) return { entry: existing, created: false };
      if (await repo.markLinkResent(trx, existing.id, now, REPEAT_JOIN_SMS_INTERVAL_MS)) {
        await deps.hooks?.run('repeatJoin', trx, { ...existing, link_resent_at: now }, venue);
      }
      return { alreadyOnList: true };
    }
    const band = bandOf(body.partySize);
    // What stands before the party, from the kept counts (one statement, under the venue's lock):
    // also every party waiting at the venue, for its cap.
    const before = await countBeforeNewcomer(trx, venueId, band, priority);
    const cap = venue.settings.maxWaitingParties;
    if (!options.byStaff && cap !== null && before.waiting >= cap) throw new AppError(ErrorCode.WAITLIST_FULL);
    // Counted under the venue's lock, in the store: one address cannot fill a venue from any instance.
    // A venue with fewer open parties than the bound cannot hold that many from one address.
    const address = options.byStaff ? undefined : options.address;
    if (
      address &&
      before.waiting + before.called >= address.maxOpen &&
      (await repo.countOpenFromAddress(trx, venueId, address.key, address.maxOpen)) >= address.maxOpen
    ) {
      throw new AppError(
        ErrorCode.TOO_MANY_OPEN_FROM_ADDRESS,
        `This venue takes at most ${address.maxOpen} open parties from one connection; please ask the host to add you.`,
      );
    }
    const proof = options.byStaff ? undefined : newJoinProof();
    // The quote this party is given, kept on its row (docs/product.md §4), its counts read under the lock.
    const quote = quoteAtJoin(before, book, placed?.seat ?? null, { band });
    const entry: EntryRow = {
      id: newEntryId(),
      share_id: newEntryId(),
      venue_id: venueId,
      seq: locked.next_seq,
      status: 'active',
      priority,
      party_size: body.partySize,
      band,
      name: body.customer.name.trim().replace(/\s+/g, ' '),
      phone,
      email: body.customer.email || null,
      note: body.note?.trim() || null,
      section,
      origin_label: body.originLabel,
      lang: body.lang ?? 'pt',
      created_at: now,
      notified_at: null,
      seated_at: null,
      cancelled_at: null,
      cancel_reason: null,
      ended_at: null,
      erased_at: null,
      join_proof_hash: proof?.hash ?? null,
      client_key: address?.key ?? null,
      link_resent_at: null,
      ...FRESH_CONVERSATION,
      // Kept only where it means something: the venue's channel is WhatsApp (docs/product.md §10).
      whatsapp_opt_in: body.whatsappOptIn === true && venue.settings.channel === 'whatsapp' ? 1 : 0,
      quoted_minutes: quote?.time ?? null,
      quoted_low: quote?.low ?? null,
      quoted_high: quote?.high ?? null,
      quote_basis: quote?.basis ? JSON.stringify(quote.basis) : null,
    };
    await repo.insertEntry(trx, entry);
    await advanceVenueSeq(trx, venueId, locked.next_seq + 1);
    // A walk-in's join SMS is a staff send: bounded per venue like a call (docs/security.md).
    if (options.byStaff && phone !== null && canTextPhone(venue, phone)) await claimStaffSend(deps, trx, entry, 'venue');
    await deps.hooks?.run('join', trx, entry, venue, options.context ?? {});
    // The newest ticket: everyone waiting at its priority or above is ahead (the kept counts read
    // under the lock, before the insert; the join hooks change no entry's status), then itself.
    const globalPos = before.ahead + 1;
    // Already that close: no "getting close" message later (getting-close.ts, docs/product.md §8).
    if (isGettingClose(venue.settings, globalPos, quote?.high ?? null)) await repo.updateEntry(trx, entry.id, { getting_close_at: now });
    const created = { entry, created: true, globalPos, ...(proof ? { joinProof: proof.proof } : {}) };
    if (key) {
      // The answer the route gives (a diner does not see the place when the venue hides it).
      const answer = toJoinAnswer(venue.settings.hidePosition && !options.byStaff ? { ...created, globalPos: undefined } : created);
      await keepIdempotentAnswer(trx, key.key, answer.status, JSON.stringify(answer.body));
    }
    return created;
  });
  // Committed (with its SMS, if one was due): the caller learns no more than this.
  if ('keyTaken' in result) throw new JoinKeyTaken(result.keyTaken);
  if ('alreadyOnList' in result) throw new AppError(ErrorCode.ALREADY_ON_WAITLIST);
  if (result.created) {
    // The kept book takes the newcomer's forecast (pace-cache.ts): its event then voids no forecast.
    if (placed) {
      const { id, status, priority, party_size, created_at, notified_at } = result.entry;
      deps.pace?.addJoined(venueId, { ...placed, party: { id, status, priority, party_size, created_at, notified_at } });
    }
    publishQueueEvent(deps, eventOf('join'), venueId, result.entry.id, { byParty: !options.byStaff });
  }
  const proof = result.joinProof ? { joinProof: result.joinProof } : {};
  if (venue.settings.hidePosition && !options.byStaff) return { entry: result.entry, created: result.created, ...proof };
  // A repeat join answers the existing entry's place as it stands now.
  const globalPos = result.globalPos ?? (await placeEntry(deps, result.entry, venue)).globalPos;
  return { entry: result.entry, created: result.created, globalPos, ...proof };
}
