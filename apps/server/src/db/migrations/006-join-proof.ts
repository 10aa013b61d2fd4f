import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/product.md §3.5: a repeat join never hands out an entry's id unless the caller shows the proof of
// the first join. The proof goes to the joining browser once; only its SHA-256 (hex) is kept.
// `link_resent_at` keeps a repeat join's SMS of the position link to once a minute per entry.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('join_proof_hash', 'varchar(64)').execute();
  await db.schema.alterTable('entries').addColumn('link_resent_at', 'bigint').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('link_resent_at').execute();
  await db.schema.alterTable('entries').dropColumn('join_proof_hash').execute();
}
