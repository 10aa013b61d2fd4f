import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/decisions/058-joins-straight-to-sqlite.md: the entries' phone had two indexes, (venue_id, phone,
// created_at) for a join's repeat check and (phone, created_at) for an SMS reply (008). A phone has
// a handful of entries at most, so (phone, created_at) answers both; each join wrote a random page
// of the second one for nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('entries_phone').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('entries_phone').on('entries').columns(['venue_id', 'phone', 'created_at']).execute();
}
