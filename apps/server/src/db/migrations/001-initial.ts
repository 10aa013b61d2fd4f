import type { Kysely } from 'kysely';

// Frozen in time: never import app code here; dialect-neutral column types only.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venues')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('slug', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('name_pt', 'varchar(120)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(120)')
    .addColumn('name_fr', 'varchar(120)')
    .addColumn('name_es', 'varchar(120)')
    .addColumn('city', 'varchar(120)', (c) => c.notNull().defaultTo(''))
    .addColumn('neighborhood', 'varchar(120)', (c) => c.notNull().defaultTo(''))
    .addColumn('has_menu', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('login_journey', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_party_size', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sections', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('waitlist_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('waitlist_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('entries')
    .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
    .addColumn('share_id', 'varchar(22)', (c) => c.notNull().unique())
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('party_size', 'integer', (c) => c.notNull())
    .addColumn('band', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(120)')
    .addColumn('phone', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('note', 'varchar(400)')
    .addColumn('section', 'varchar(60)')
    .addColumn('origin_label', 'varchar(20)', (c) => c.notNull())
    .addColumn('lang', 'varchar(5)', (c) => c.notNull().defaultTo('pt'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('notified_at', 'bigint')
    .addColumn('seated_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('cancel_reason', 'varchar(20)')
    .addColumn('ended_at', 'bigint')
    .addColumn('erased_at', 'bigint')
    .execute();

  await db.schema.createIndex('entries_venue_seq').unique().on('entries').columns(['venue_id', 'seq']).execute();
  // Position reads count the waiting parties ahead through this index: the queue, not the history.
  await db.schema.createIndex('entries_queue').on('entries').columns(['venue_id', 'status', 'priority', 'seq']).execute();
  await db.schema.createIndex('entries_phone').on('entries').columns(['venue_id', 'phone', 'created_at']).execute();
  await db.schema.createIndex('entries_ended').on('entries').columns(['ended_at']).execute();

  await db.schema
    .createTable('venue_pace')
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id'))
    .addColumn('band', 'integer', (c) => c.notNull())
    .addColumn('ema_ms', 'double precision', (c) => c.notNull())
    .addColumn('last_seated_at', 'bigint', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('venue_pace_pk', ['venue_id', 'band'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('venue_pace').execute();
  await db.schema.dropTable('entries').execute();
  await db.schema.dropTable('venues').execute();
}
