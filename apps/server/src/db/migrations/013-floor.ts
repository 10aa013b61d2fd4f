import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/decisions/022-wait-estimates.md, "The floor": per venue that lists its tables, which of
// them are busy and what the floor has learned (turns, calls to seats), one JSON row.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venue_floor')
    .addColumn('venue_id', 'varchar(24)', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('venue_floor').execute();
}
