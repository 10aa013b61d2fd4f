import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/product.md §8, calls that end well: when a party got its one "getting close" message (or was
// already close when it joined, so it never gets one). Called parties whose hold window ran out are
// found by status and `hold_until` (migration 008).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('getting_close_at', 'bigint').execute();
  await db.schema.createIndex('entries_hold').on('entries').columns(['status', 'hold_until']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('entries_hold').execute();
  await db.schema.alterTable('entries').dropColumn('getting_close_at').execute();
}
