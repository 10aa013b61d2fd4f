import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/security.md, "Staff send bounds" and "Webhook replay": every message staff send to a party
// (a message, a message sent again, a call), counted per party and per venue in the store so every
// instance agrees; and the provider webhooks already acted on (by MessageSid), so a repeated
// delivery is answered and ignored. Both are pruned by age by the retention job.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('staff_sends')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('entry_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sends_entry').on('staff_sends').columns(['entry_id', 'created_at']).execute();
  await db.schema.createIndex('staff_sends_venue').on('staff_sends').columns(['venue_id', 'created_at']).execute();
  await db.schema
    .createTable('webhook_sids')
    // `inbound:<MessageSid>` or `status:<MessageSid>:<MessageStatus>`.
    .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_sids_created').on('webhook_sids').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_sids').execute();
  await db.schema.dropTable('staff_sends').execute();
}
