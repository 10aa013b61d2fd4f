import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/decisions/026: a venue bounds the open entries (waiting or called) joined from one client
// address. The entry keeps a keyed hash of the joining address (HMAC with a key the store keeps in
// `app_keys`), never the address itself, and loses it with its other personal data. User events
// are deleted by age now, so their time is indexed on its own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('client_key', 'varchar(64)').execute();
  await db.schema.createIndex('entries_venue_client').on('entries').columns(['venue_id', 'client_key', 'status']).execute();
  // The retention job deletes user events by age (docs/security.md, Retention).
  await db.schema.createIndex('user_events_created').on('user_events').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('user_events_created').execute();
  await db.schema.dropIndex('entries_venue_client').execute();
  await db.schema.alterTable('entries').dropColumn('client_key').execute();
}
