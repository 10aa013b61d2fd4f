import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/decisions/026: a venue bounds the open entries (waiting or called) joined from one client
// address. The entry keeps a keyed hash of the joining address (HMAC with a key the store keeps in
// `app_keys`), never the address itself, and loses it with its other personal data.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('client_key', 'varchar(64)').execute();
  await db.schema.createIndex('entries_venue_client').on('entries').columns(['venue_id', 'client_key', 'status']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('entries_venue_client').execute();
  await db.schema.alterTable('entries').dropColumn('client_key').execute();
}
