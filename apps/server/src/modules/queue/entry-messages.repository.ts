import type { Kysely } from 'kysely';
import { type ListArgs, compiledOnce, listArgs, listOf } from '../../db/compiled-once.js';
import type { Database, EntryMessageRow } from '../../db/types.js';

/**
 * The `entry_messages` table, a party's thread (docs/product.md §7): the only place with its SQL
 * (docs/ARCHITECTURE.md habit 3). What also changes the entry (unread count, last message state)
 * lives in entries.repository.ts, which calls these.
 */

type Executor = Kysely<Database>;

export async function insertEntryMessage(db: Executor, row: EntryMessageRow): Promise<void> {
  await db.insertInto('entry_messages').values(row).execute();
}

export function listEntryMessages(db: Executor, entryId: string): Promise<EntryMessageRow[]> {
  return db.selectFrom('entry_messages').selectAll().where('entry_id', '=', entryId).orderBy('created_at').orderBy('id').execute();
}

/** Marks the party's received messages read (entries.repository.ts `markPartyMessagesRead` clears the count). */
export async function markMessagesRead(db: Executor, entryId: string): Promise<void> {
  await db.updateTable('entry_messages').set({ status: 'read' }).where('entry_id', '=', entryId).where('status', '=', 'received').execute();
}

export async function pointEntryMessageAt(db: Executor, entryMessageId: string, messageId: string | null, status: string): Promise<void> {
  await db.updateTable('entry_messages').set({ message_id: messageId, status }).where('id', '=', entryMessageId).execute();
}

/** The thread's copies of these messages take the new state unless they hold a later one (entries.repository.ts `recordDeliveryOf`). */
export async function recordMessageStatus(
  db: Executor,
  messageIds: readonly string[],
  status: string,
  earlier: readonly string[],
): Promise<void> {
  await threadStatusUpdate(db, listArgs(messageIds, { status, earlier }));
}

const threadStatusUpdate = compiledOnce<ListArgs>(
  (db, arg, args) =>
    db
      .updateTable('entry_messages')
      .set({ status: arg('status') as string })
      .where('message_id', 'in', listOf(arg as (name: string) => unknown, args.length))
      // The states it may replace are few and fixed per caller: part of the statement's shape.
      .where('status', 'in', args.earlier as string[])
      .compile(),
  (args) => `${args.length}|${(args.earlier as string[]).join(',')}`,
);

/** The texts of the threads of entries erased at `now` (entries.repository.ts `erasePersonalData`); times and states stay. */
export async function eraseTextsOfEntriesErasedAt(db: Executor, now: number): Promise<void> {
  await db
    .updateTable('entry_messages')
    .set({ text: null })
    .where('text', 'is not', null)
    .where('entry_id', 'in', (eb) => eb.selectFrom('entries').select('id').where('erased_at', '=', now))
    .execute();
}

export function findEntryMessageByMessageId(db: Executor, messageId: string): Promise<EntryMessageRow | undefined> {
  return db.selectFrom('entry_messages').selectAll().where('message_id', '=', messageId).executeTakeFirst();
}

/** The thread's copy of a WhatsApp message that went again by SMS follows the SMS (docs/product.md §10). */
export async function pointThreadAtFallback(db: Executor, whatsappId: string, smsId: string): Promise<void> {
  await db
    .updateTable('entry_messages')
    .set({ message_id: smsId, status: 'queued', channel: 'sms', fallback_from: 'whatsapp' })
    .where('message_id', '=', whatsappId)
    .execute();
}
