import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/product.md §3.9, idempotent joins: each join's `Idempotency-Key` with a hash of its body and
// its first answer (status and JSON body), kept a day and then deleted by the retention job. The
// primary key is the key itself: two joins racing with one key never both create an entry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
    // 0 while the join that claimed the key is still in its transaction.
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
