import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    // Stored lower-cased, so uniqueness ignores case.
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    // scrypt$N$r$p$salt$hash: the parameters travel with the hash, so they can be raised later.
    .addColumn('password_hash', 'varchar(300)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_venues')
    .addColumn('staff_id', 'varchar(24)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('staff_venues_pk', ['staff_id', 'venue_id'])
    .execute();
  await db.schema.createIndex('staff_venues_venue').on('staff_venues').columns(['venue_id']).execute();

  await db.schema
    .createTable('staff_sessions')
    // SHA-256 of the random cookie token: a copy of the table does not open sessions.
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('staff_id', 'varchar(24)', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_expires').on('staff_sessions').columns(['expires_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.dropTable('staff_venues').execute();
  await db.schema.dropTable('staff').execute();
}
