import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('product_users')
    .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
    .addColumn('first_name', 'varchar(60)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(60)', (c) => c.notNull())
    // E.164; the verified identity of the user.
    .addColumn('phone', 'varchar(20)', (c) => c.notNull().unique())
    // Lower-cased; several NULLs are allowed by a unique constraint in both dialects.
    .addColumn('email', 'varchar(254)', (c) => c.unique())
    .addColumn('birthday', 'varchar(10)')
    .addColumn('gender', 'varchar(30)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_sessions')
    // SHA-256 of the cookie's token: a database leak gives no usable session.
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(22)', (c) => c.notNull().references('product_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('target', 'varchar(254)', (c) => c.notNull())
    .addColumn('venue_id', 'varchar(24)')
    // scrypt with a per-code salt: a 6-digit code is not recoverable from a leak within its 10 minutes.
    .addColumn('code_hash', 'varchar(200)', (c) => c.notNull())
    // SHA-256 of the client address, for the per-address send limit; never the address itself.
    .addColumn('client_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('one_time_codes_target').on('one_time_codes').columns(['target', 'channel', 'created_at']).execute();
  await db.schema.createIndex('one_time_codes_client').on('one_time_codes').columns(['client_key', 'created_at']).execute();

  await db.schema
    .createTable('passports')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(22)', (c) => c.notNull().references('product_users.id').onDelete('cascade'))
    .addColumn('entry_id', 'varchar(22)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('user_events')
    .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(22)', (c) => c.notNull().references('product_users.id').onDelete('cascade'))
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('event_body', 'text', (c) => c.notNull())
    .addColumn('waitlist_id', 'varchar(22)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_events_user').on('user_events').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When pending: the earliest next try. When sending: the end of the worker's lease.
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('provider', 'varchar(20)')
    .addColumn('provider_id', 'varchar(200)')
    .addColumn('error', 'varchar(300)')
    // One message per cause (join, call, code): enqueueing it again does nothing.
    .addColumn('idempotency_key', 'varchar(120)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema.createIndex('messages_due').on('messages').columns(['status', 'next_attempt_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['messages', 'user_events', 'passports', 'one_time_codes', 'user_sessions', 'product_users']) {
    await db.schema.dropTable(table).execute();
  }
}
