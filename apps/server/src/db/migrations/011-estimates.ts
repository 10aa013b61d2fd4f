import type { Kysely } from 'kysely';

// Frozen in time: never import app code here.
// docs/decisions/022-wait-estimates.md: the estimator's state per venue and band (venue_pace: a
// service interval instead of the gap between seatings, a weighted linear fit of actual waits on
// that forecast, the turn-cycle model and the spread of the quotes' errors), the same interval per
// hour of the week (venue_pace_slots: the venue's history), and the quote each entry was given
// with the forecasts it was made from.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  // The old average measured something else (gaps between seatings, idle time included): start over.
  await db.deleteFrom('venue_pace').execute();
  await db.schema.alterTable('venue_pace').dropColumn('ema_ms').execute();
  await db.schema
    .alterTable('venue_pace')
    .addColumn('service_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ['fit_w', 'fit_x', 'fit_xx', 'fit_y', 'fit_xy']) {
    await db.schema
      .alterTable('venue_pace')
      .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable('venue_pace')
    .addColumn('spread_low', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('venue_pace')
    .addColumn('spread_high', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('venue_pace')
    .addColumn('quotes', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('venue_pace').addColumn('cycle', 'text').execute();
  await db.schema
    .createTable('venue_pace_slots')
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull().references('venues.id'))
    .addColumn('band', 'integer', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('service_ms', 'double precision', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('venue_pace_slots_pk', ['venue_id', 'slot', 'band'])
    .execute();
  await db.schema.alterTable('entries').addColumn('quoted_minutes', 'integer').execute();
  await db.schema.alterTable('entries').addColumn('quoted_low', 'integer').execute();
  await db.schema.alterTable('entries').addColumn('quoted_high', 'integer').execute();
  await db.schema.alterTable('entries').addColumn('quote_basis', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('quote_basis').execute();
  await db.schema.alterTable('entries').dropColumn('quoted_high').execute();
  await db.schema.alterTable('entries').dropColumn('quoted_low').execute();
  await db.schema.alterTable('entries').dropColumn('quoted_minutes').execute();
  await db.schema.dropTable('venue_pace_slots').execute();
  await db.deleteFrom('venue_pace').execute();
  for (const column of ['cycle', 'quotes', 'spread_high', 'spread_low', 'fit_xy', 'fit_y', 'fit_xx', 'fit_x', 'fit_w', 'service_ms']) {
    await db.schema.alterTable('venue_pace').dropColumn(column).execute();
  }
  await db.schema
    .alterTable('venue_pace')
    .addColumn('ema_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
}
