import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// Uploaded venue images live in the database, so every server instance serves the same bytes.
// `bytea` is PostgreSQL's binary type; SQLite accepts the name and stores the value as a BLOB
// untouched (it converts only text under that column's affinity), as 001 does with `bigint`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('images')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id'))
    .addColumn('content_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('images_venue').on('images').columns(['venue_id', 'created_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('images').execute();
}
