import {
  ErrorCode,
  type MessageChannel,
  type MessageStatus,
  type ReplyKind,
  type ThreadMessage,
  type ThreadResponse,
  VENUE_MESSAGES_SHOWN,
  type VenueMessage,
} from '@vez/contract';
import type { Db } from '../../db/connect.js';
import type { EntryMessageRow, EntryRow } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { newOrderedId } from '../../lib/ids.js';
import { assertTransition, eventOf, isOpen, refusalOf } from './entry-state.js';
import { venueMessagesOf } from './entry-views.js';
import { extendedHoldEnd } from './hold-window.js';
import { routeOf } from './message-route.js';
import { findEntryAtVenue } from './position.service.js';
import type { QueueDeps } from './queue-deps.js';
import { publishQueueEvent } from './queue-events.js';
import * as repo from './entries.repository.js';
import { findEntryMessageByMessageId, insertEntryMessage, listEntryMessages, pointEntryMessageAt } from './entry-messages.repository.js';
import { claimStaffSend } from './staff-sends.js';

/**
 * The conversation between a party and the venue (docs/product.md §7): the party's answers (from
 * its page or by SMS), its messages, the venue's messages, and what became of each one sent.
 */

/**
 * The party answers: on my way, I need more time, I'm here. "I need more time" while called
 * extends the hold window by those minutes, once per call (hold-window.ts).
 */
export async function replyToVenue(deps: QueueDeps, entry: EntryRow, kind: ReplyKind, minutes: number | null): Promise<EntryRow> {
  assertTransition('reply', entry.status);
  const now = deps.now();
  const patch: Partial<EntryRow> = { reply_kind: kind, reply_minutes: kind === 'needMoreTime' ? minutes : null, reply_at: now };
  const extended = kind === 'needMoreTime' ? extendedHoldEnd(entry, minutes) : undefined;
  if (extended !== undefined) {
    patch.hold_until = extended;
    patch.hold_extended = 1;
  }
  if (!(await repo.updateOpenEntry(deps.db.kysely, entry.id, patch))) throw refusalOf('reply');
  publishQueueEvent(deps, eventOf('reply'), entry.venue_id, entry.id, { byParty: true });
  return { ...entry, ...patch };
}

/** An answer from the position page: its own link only (a shared link reads, never answers). */
export async function replyFromPage(
  deps: QueueDeps,
  waitlistId: string,
  venueId: string,
  reply: { reply: ReplyKind; minutes?: number | undefined },
): Promise<EntryRow> {
  const found = await findEntryAtVenue(deps, waitlistId, venueId);
  if (found.isShared) throw new AppError(ErrorCode.SHARED_LINK_READ_ONLY);
  return replyToVenue(deps, found.entry, reply.reply, reply.minutes ?? null);
}

/** A message from the party (an SMS that is no keyword): unread until staff open the thread. */
export async function messageFromParty(deps: QueueDeps, entry: EntryRow, text: string): Promise<void> {
  assertTransition('partyMessage', entry.status);
  const now = deps.now();
  await inTransaction(deps.db.kysely, async (trx) => {
    await insertEntryMessage(trx, {
      id: newOrderedId(now),
      entry_id: entry.id,
      venue_id: entry.venue_id,
      direction: 'in',
      text,
      status: 'received',
      message_id: null,
      created_at: now,
      channel: null,
      fallback_from: null,
    });
    await repo.incrementUnread(trx, entry.id);
  });
  publishQueueEvent(deps, eventOf('partyMessage'), entry.venue_id, entry.id, { byParty: true, staffOnly: true });
}

/**
 * Staff write to the party: kept in the thread, shown on the diner's page (newest first) and sent
 * by the venue's channel in the same transaction (docs/decisions/003-message-queue.md).
 */
export async function messageToParty(deps: QueueDeps, entry: EntryRow, text: string): Promise<ThreadMessage> {
  assertTransition('staffMessage', entry.status);
  const now = deps.now();
  const id = newOrderedId(now);
  const shown: VenueMessage[] = [{ text, at: new Date(now).toISOString() }, ...venueMessagesOf(entry)].slice(0, VENUE_MESSAGES_SHOWN);
  const row: EntryMessageRow = {
    id,
    entry_id: entry.id,
    venue_id: entry.venue_id,
    direction: 'out',
    text,
    status: 'queued',
    message_id: null,
    created_at: now,
    channel: null,
    fallback_from: null,
  };
  await inTransaction(deps.db.kysely, async (trx) => {
    await claimStaffSend(deps, trx, entry);
    if (!(await repo.updateOpenEntry(trx, entry.id, { venue_messages: JSON.stringify(shown), venue_message_at: now }))) {
      throw refusalOf('staffMessage');
    }
    const queued = await deps.messenger?.send(trx, entry, text, `staff:${id}`);
    // Without a channel to the party (no phone, STOP) the page still shows it: sent, not queued.
    row.message_id = queued?.id ?? null;
    row.status = queued ? 'queued' : 'sent';
    row.channel = queued?.channel ?? null;
    await insertEntryMessage(trx, row);
    if (queued) await repo.setLastMessage(trx, entry.id, queued.id, queued.channel);
  });
  publishQueueEvent(deps, eventOf('staffMessage'), entry.venue_id, entry.id);
  return toThreadMessage(row);
}

/** The thread, oldest first; opening it marks the party's messages read. */
export async function readThread(deps: QueueDeps, entry: EntryRow): Promise<ThreadResponse> {
  const rows = await listEntryMessages(deps.db.kysely, entry.id);
  if (entry.unread > 0 && (await repo.markPartyMessagesRead(deps.db.kysely, entry.id)) > 0) {
    publishQueueEvent(deps, 'update', entry.venue_id, entry.id, { staffOnly: true });
  }
  return { messages: rows.map(toThreadMessage) };
}

/**
 * Sends a message about this entry again (a failed delivery, from the card). Only while the party is
 * on the list: nothing is sent again to a party that has ended (docs/security.md, staff send bounds).
 */
export async function sendAgain(deps: QueueDeps, entry: EntryRow, messageId: string): Promise<void> {
  const messenger = deps.messenger;
  if (!messenger) throw new AppError(ErrorCode.NOT_FOUND, 'No message channel is configured.');
  if (!isOpen(entry.status)) throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE, ENDED_PARTY);
  await inTransaction(deps.db.kysely, async (trx) => {
    await claimStaffSend(deps, trx, entry);
    const again = await messenger.resend(trx, entry, messageId);
    if (!again) throw new AppError(ErrorCode.NOT_FOUND, 'No such message for this party.');
    const threaded = await findEntryMessageByMessageId(trx, messageId);
    if (threaded) await pointEntryMessageAt(trx, threaded.id, again.id, 'queued');
    await repo.setLastMessage(trx, entry.id, again.id, again.channel);
  });
  publishQueueEvent(deps, 'update', entry.venue_id, entry.id, { staffOnly: true });
}

const ENDED_PARTY = 'This party is no longer on the list: nothing is sent to it again.';

/** Each delivery state may follow only the ones listed before it (reports may come out of order). */
const EARLIER: Record<'sent' | 'delivered' | 'failed', readonly MessageStatus[]> = {
  sent: ['queued'],
  delivered: ['queued', 'sent'],
  failed: ['queued', 'sent'],
};

/** What became of messages the queue sent (the worker, or the provider's status callback). */
export async function recordDelivery(
  deps: QueueDeps,
  messageIds: readonly string[],
  status: 'sent' | 'delivered' | 'failed',
): Promise<void> {
  (await recordDeliveryIn(deps, deps.db.kysely, messageIds, status))();
}

/**
 * The same inside the caller's write transaction (the outbox's delivery, db/write-batch.ts): answers
 * what to publish once that transaction has committed.
 */
export async function recordDeliveryIn(
  deps: QueueDeps,
  trx: Db['kysely'],
  messageIds: readonly string[],
  status: 'sent' | 'delivered' | 'failed',
): Promise<() => void> {
  const changed = await repo.recordDeliveryOf(trx, messageIds, status, EARLIER[status]);
  return () => {
    for (const entry of changed) publishQueueEvent(deps, 'update', entry.venue_id, entry.id, { staffOnly: true });
  };
}

/** The message just queued about this entry is its last one (join and call SMS, in their transaction). */
export const recordLastMessage = (trx: Db['kysely'], entryId: string, messageId: string, channel?: MessageChannel): Promise<void> =>
  repo.setLastMessage(trx, entryId, messageId, channel ?? null);

/** A WhatsApp message about an entry went again by SMS: its card and thread follow the SMS (docs/product.md §10). */
export async function recordFallback(deps: QueueDeps, whatsappId: string, smsId: string): Promise<void> {
  const changed = await repo.pointAtFallback(deps.db.kysely, whatsappId, smsId);
  for (const entry of changed) publishQueueEvent(deps, 'update', entry.venue_id, entry.id, { staffOnly: true });
}

/** The party wrote to the venue on WhatsApp: free text may go to it for 24 hours (docs/product.md §10). */
export const openWhatsAppWindow = (deps: QueueDeps, entry: EntryRow): Promise<void> =>
  repo.setWhatsAppInbound(deps.db.kysely, entry.id, deps.now());

/** The open entry an SMS from this phone answers: the most recent one, at any venue. */
export const findOpenEntryOfPhone = (deps: QueueDeps, phone: string): Promise<EntryRow | undefined> =>
  repo.findLatestOpenEntryByPhone(deps.db.kysely, phone);

/** The latest entry of this phone, open or ended: the language to answer an SMS in. */
export const findLatestEntryOfPhone = (deps: QueueDeps, phone: string): Promise<EntryRow | undefined> =>
  repo.findLatestEntryByPhone(deps.db.kysely, phone);

function toThreadMessage(row: EntryMessageRow): ThreadMessage {
  return {
    _id: row.id,
    direction: row.direction,
    text: row.text ?? '',
    at: new Date(row.created_at).toISOString(),
    status: row.status as MessageStatus,
    ...routeOf(row.channel, row.fallback_from),
  };
}
