import { type Kysely, sql } from 'kysely';
import { argsOf, columnsOf, compiledOnce } from '../../db/compiled-once.js';
import type { Dialect } from '../../db/connect.js';
import type { Database, MessageRow, MessageTable } from '../../db/types.js';
import { recordOptOut } from './sms-opt-outs.repository.js';

type Executor = Kysely<Database>;

export type NewMessage = Pick<
  MessageTable,
  | 'id'
  | 'channel'
  | 'recipient'
  | 'subject'
  | 'body'
  | 'safe_body'
  | 'idempotency_key'
  | 'created_at'
  | 'entry_id'
  | 'segments'
  | 'content_sid'
  | 'content_variables'
  | 'fallback_body'
  | 'fallback_of'
>;

/** Queues a message; a second message with the same idempotency key is ignored. Returns whether it was new. */
export async function insertMessage(db: Executor, message: NewMessage): Promise<boolean> {
  const result = await messageInsert(db, message);
  return Number(result.numAffectedRows ?? 0) > 0;
}

// Compiled once per set of columns (db/compiled-once.ts): every join queues its SMS (docs/decisions/042-cheaper-joins.md).
const messageInsert = compiledOnce<NewMessage>((db, arg, message) => {
  const values = argsOf(arg, message);
  return db
    .insertInto('messages')
    .values({ ...values, status: 'pending', attempts: 0, next_attempt_at: arg('created_at') })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .compile();
}, columnsOf);

/**
 * Claims up to `limit` due messages for this worker: pending ones whose time has come, and sending
 * ones whose lease ran out (their worker died). One statement, so two workers never claim the same
 * row: PostgreSQL skips rows another worker has locked; SQLite runs one writer at a time.
 */
export function claimDueMessages(
  db: Executor,
  dialect: Dialect,
  now: number,
  leaseMs: number,
  limit: number,
  channels: readonly MessageRow['channel'][] = ['sms', 'email', 'push'],
): Promise<MessageRow[]> {
  let due = db
    .selectFrom('messages')
    .select('id')
    .where('channel', 'in', channels)
    .where('status', 'in', ['pending', 'sending'])
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  return (
    db
      .updateTable('messages')
      .set((eb) => ({ status: 'sending', next_attempt_at: now + leaseMs, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      // Checked again on the locked row: another worker may have taken it meanwhile.
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', now)
      .returningAll()
      .execute()
  );
}

/**
 * A finished message keeps no usable code or login link (docs/product.md §3): its body becomes the
 * masked `safe_body` when it has one. Part of the statement that settles the message.
 */
const maskSecret = {
  body: sql<string>`coalesce(safe_body, body)`,
  safe_body: null,
  // A WhatsApp template's slots hold the same link (docs/product.md §10): they go with the secret.
  content_variables: sql<string | null>`case when safe_body is null then content_variables else null end`,
};

/**
 * The outbox provider's delivery is the row itself: one statement marks every due message of
 * these channels sent, without a claim per message (the demo and the tests send many).
 */
const dueSentByOutbox = compiledOnce<
  { channels: readonly MessageRow['channel'][]; now: number },
  Pick<MessageRow, 'id' | 'entry_id' | 'channel'>
>(
  (db, arg, args) =>
    db
      .updateTable('messages')
      .set((eb) => ({
        status: 'sent',
        sent_at: arg('now'),
        provider: 'outbox',
        provider_id: 'outbox',
        error: null,
        attempts: eb('attempts', '+', 1),
        ...maskSecret,
      }))
      // The outbox's channels are fixed per deployment: part of the statement's shape.
      .where('channel', 'in', args.channels)
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', arg('now'))
      .returning(['id', 'entry_id', 'channel'])
      .compile(),
  (args) => args.channels.join(','),
);

export async function markDueSentByOutbox(
  db: Executor,
  channels: readonly MessageRow['channel'][],
  now: number,
): Promise<Pick<MessageRow, 'id' | 'entry_id' | 'channel'>[]> {
  return (await dueSentByOutbox(db, { channels, now })).rows;
}

/** Only the worker holding the claim (same attempt number, still sending) may settle a message. */
function settle(db: Executor, claimed: MessageRow) {
  return db.updateTable('messages').where('id', '=', claimed.id).where('status', '=', 'sending').where('attempts', '=', claimed.attempts);
}

export async function markSent(db: Executor, claimed: MessageRow, provider: string, providerId: string, now: number): Promise<void> {
  await settle(db, claimed)
    .set({ status: 'sent', sent_at: now, provider, provider_id: providerId.slice(0, 200), error: null, ...maskSecret })
    .execute();
}

export async function markRetry(db: Executor, claimed: MessageRow, error: string, nextAttemptAt: number): Promise<void> {
  await settle(db, claimed)
    .set({ status: 'pending', next_attempt_at: nextAttemptAt, error: error.slice(0, 300) })
    .execute();
}

export async function markFailed(db: Executor, claimed: MessageRow, provider: string, error: string): Promise<void> {
  await settle(db, claimed)
    .set({ status: 'failed', provider, error: error.slice(0, 300), ...maskSecret })
    .execute();
}

/**
 * A WhatsApp message that will not arrive (docs/product.md §10): takes its SMS fallback's text off
 * the row, so the fallback goes once even when the refusal and a status callback both report it.
 * Answers the text, or undefined when there is none (left, or already taken).
 */
export async function takeFallbackBody(db: Executor, id: string, error: string): Promise<string | undefined> {
  const found = await db.selectFrom('messages').select('fallback_body').where('id', '=', id).executeTakeFirst();
  if (!found?.fallback_body) return undefined;
  // Checked again in the update: of two reports at once, one takes it.
  const taken = await db
    .updateTable('messages')
    .set({ fallback_body: null, status: 'failed', error: error.slice(0, 300), ...maskSecret })
    .where('id', '=', id)
    .where('fallback_body', 'is not', null)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0 ? found.fallback_body : undefined;
}

/**
 * Messages the outbox holds, newest first (GET /api/dev/outbox): those it delivered, and those of
 * its channels committed and about to be (the worker marks them with the next commit it rides,
 * docs/decisions/046-fewer-commits-per-change.md): a message shows once the change that queued it
 * is answered.
 */
export function listOutbox(db: Executor, channels: readonly MessageRow['channel'][], limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('provider', '=', 'outbox'), eb('status', '=', 'sent')]),
        ...(channels.length > 0 ? [eb.and([eb('status', '=', 'pending'), eb('channel', 'in', channels)])] : []),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Deletes finished messages (with their phone, address and text) created before `cutoff`. */
export async function deleteFinishedBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db
    .deleteFrom('messages')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Records the opt-out and fails what is still waiting to go to that phone by SMS. */
export async function optOut(db: Executor, phone: string, now: number): Promise<Pick<MessageRow, 'id' | 'entry_id'>[]> {
  await recordOptOut(db, phone, now);
  return db
    .updateTable('messages')
    .set({ status: 'failed', error: 'opted out (STOP)', ...maskSecret })
    .where('channel', '=', 'sms')
    .where('recipient', 'in', [phone, `whatsapp:${phone}`])
    .where('status', '=', 'pending')
    .returning(['id', 'entry_id'])
    .execute();
}

/** The message with this provider id (a status callback names only that). */
export function findByProviderId(db: Executor, providerId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('messages').selectAll().where('provider_id', '=', providerId).executeTakeFirst();
}

export function findMessageOfEntry(db: Executor, id: string, entryId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('messages').selectAll().where('id', '=', id).where('entry_id', '=', entryId).executeTakeFirst();
}

/**
 * Messages about a venue's parties sent in [from, to), by channel, with the SMS segments they cost
 * (docs/product.md §8, SMS cost). WhatsApp goes on the `sms` channel to a `whatsapp:` address.
 */
export async function countSentAboutVenue(
  db: Executor,
  venueId: string,
  from: number,
  to: number,
): Promise<{ channel: MessageRow['channel']; whatsapp: boolean; sent: number; segments: number }[]> {
  const rows = await db
    .selectFrom('messages')
    .innerJoin('entries', 'entries.id', 'messages.entry_id')
    .select((eb) => [
      'messages.channel as channel',
      sql<number>`case when messages.recipient like 'whatsapp:%' then 1 else 0 end`.as('whatsapp'),
      eb.fn.countAll<number | string>().as('sent'),
      eb.fn.sum<number | string | null>('messages.segments').as('segments'),
    ])
    .where('entries.venue_id', '=', venueId)
    .where('messages.status', '=', 'sent')
    .where('messages.sent_at', '>=', from)
    .where('messages.sent_at', '<', to)
    .groupBy(['messages.channel', sql`case when messages.recipient like 'whatsapp:%' then 1 else 0 end`])
    .execute();
  return rows.map((r) => ({
    channel: r.channel,
    whatsapp: Number(r.whatsapp) === 1,
    sent: Number(r.sent),
    segments: Number(r.segments ?? 0),
  }));
}

/** Messages waiting to be sent or being sent, by channel and status: the queue's depth (plugins/metrics.ts). */
export async function countQueued(db: Executor): Promise<{ channel: string; status: string; n: number }[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['channel', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('status', 'in', ['pending', 'sending'])
    .groupBy(['channel', 'status'])
    .execute();
  return rows.map((r) => ({ channel: r.channel, status: r.status, n: Number(r.n) }));
}
