import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/product.md §8, SMS cost: what each SMS cost in segments, counted at queue time from the text
// that goes (a login link is masked in the stored body once sent, so the body alone undercounts).
// Null for other channels and for rows queued before this migration.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('segments', 'integer').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('segments').execute();
}
