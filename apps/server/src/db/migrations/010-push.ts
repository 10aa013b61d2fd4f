import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/product.md §8, browser push: a party's push subscriptions (personal data: erased with the
// entry's), and the server's own keys (the VAPID key pair, generated on first start when the
// environment names none, shared by every instance through the store).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('entry_id', 'varchar(40)', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
    .addColumn('auth', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_entry').on('push_subscriptions').column('entry_id').execute();
  await db.schema
    .createTable('app_keys')
    .addColumn('name', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('app_keys').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
