import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// docs/product.md §9, docs/decisions/023-staff-roles.md: a role per staff account per venue
// (`owner` or `host`), and single-use invitations of hosts by email.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  // Every binding that exists today becomes `owner`: nobody loses a right they had.
  await db.schema
    .alterTable('staff_venues')
    .addColumn('role', 'varchar(10)', (c) => c.notNull().defaultTo('owner'))
    .execute();

  await db.schema
    .createTable('staff_invites')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    // SHA-256 (hex) of the link's token, like staff_sessions: a copy of the table opens nothing.
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    // Stored lower-cased, like staff.email.
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('role', 'varchar(10)', (c) => c.notNull())
    // The owner who sent it; kept (null) when that account is removed.
    .addColumn('created_by', 'varchar(24)', (c) => c.references('staff.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // Set once, by the accept that used it: single use.
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('staff_invites_venue').on('staff_invites').columns(['venue_id', 'email']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_invites').execute();
  await db.schema.alterTable('staff_venues').dropColumn('role').execute();
}
