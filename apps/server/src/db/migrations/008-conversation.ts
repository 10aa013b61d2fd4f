import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/product.md §7, the conversation between a party and the venue:
// - an entry keeps the party's latest answer (`reply_kind`, `reply_minutes`, `reply_at`), how many
//   times staff called it (`calls`), until when its table is held (`hold_until`, extended once by
//   "I need more time": `hold_extended`), the party's messages staff have not read (`unread`), the
//   last message sent to it and that message's delivery (`last_message_id`, `last_message_status`),
//   and the venue's latest messages as the diner's page shows them (`venue_messages`, JSON, newest
//   first; `venue_message_at` tells a page that it changed). Texts are personal data: erased with
//   the entry's name and phone.
// - `entry_messages`: the thread of an entry, both directions; an outgoing one points at its row in
//   the message queue (`message_id`), whose provider id the delivery callbacks name.
// - `sms_opt_outs`: phones that answered STOP; nothing more is sent to them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  const entries = [
    ['reply_kind', 'varchar(16)'],
    ['reply_minutes', 'integer'],
    ['reply_at', 'bigint'],
    ['hold_until', 'bigint'],
    ['last_message_id', 'varchar(40)'],
    ['last_message_status', 'varchar(16)'],
    ['venue_messages', 'text'],
    ['venue_message_at', 'bigint'],
  ] as const;
  for (const [name, type] of entries) await db.schema.alterTable('entries').addColumn(name, type).execute();
  for (const name of ['calls', 'hold_extended', 'unread']) {
    await db.schema
      .alterTable('entries')
      .addColumn(name, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // A delivery report names a message: the entry whose last message it is.
  await db.schema.createIndex('entries_last_message').on('entries').column('last_message_id').execute();
  // An SMS reply names only the sender's phone: its latest open entry, at any venue.
  await db.schema.createIndex('entries_reply_phone').on('entries').columns(['phone', 'created_at']).execute();

  await db.schema
    .createTable('entry_messages')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('entry_id', 'varchar(40)', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('direction', 'varchar(3)', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('message_id', 'varchar(40)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('entry_messages_entry').on('entry_messages').columns(['entry_id', 'created_at']).execute();
  await db.schema.createIndex('entry_messages_message').on('entry_messages').column('message_id').execute();

  await db.schema.alterTable('messages').addColumn('entry_id', 'varchar(40)').execute();
  await db.schema.createIndex('messages_provider_id').on('messages').column('provider_id').execute();

  await db.schema
    .createTable('sms_opt_outs')
    .addColumn('phone', 'varchar(20)', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sms_opt_outs').execute();
  await db.schema.dropIndex('messages_provider_id').execute();
  await db.schema.alterTable('messages').dropColumn('entry_id').execute();
  await db.schema.dropTable('entry_messages').execute();
  await db.schema.dropIndex('entries_reply_phone').execute();
  await db.schema.dropIndex('entries_last_message').execute();
  for (const name of [
    'unread',
    'hold_extended',
    'calls',
    'venue_message_at',
    'venue_messages',
    'last_message_status',
    'last_message_id',
    'hold_until',
    'reply_at',
    'reply_minutes',
    'reply_kind',
  ]) {
    await db.schema.alterTable('entries').dropColumn(name).execute();
  }
}
