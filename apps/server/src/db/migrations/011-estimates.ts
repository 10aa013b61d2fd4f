import { type Kysely, PostgresAdapter, sql } from 'kysely';

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
  await openCounts(db);
}

/**
 * Open parties (waiting or called) per venue, band, priority and status, kept by triggers in the
 * same transaction as every change of an entry, like venue_waiting (migration 005): a join's quote
 * needs the parties before it in its band and those called, and must not count the queue for them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
async function openCounts(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venue_open_counts')
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('band', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('venue_open_counts_pk', ['venue_id', 'status', 'band', 'priority'])
    .execute();
  await sql`
    insert into venue_open_counts (venue_id, band, priority, status, n)
    select venue_id, band, priority, status, count(*) from entries where status in ('active', 'called')
    group by venue_id, band, priority, status
  `.execute(db);
  const upsert = (row: string) =>
    sql.raw(`
    insert into venue_open_counts (venue_id, band, priority, status, n)
    values (${row}.venue_id, ${row}.band, ${row}.priority, ${row}.status, 1)
    on conflict (venue_id, status, band, priority) do update set n = venue_open_counts.n + 1`);
  const lower = (row: string) =>
    sql.raw(`
    update venue_open_counts set n = n - 1
    where venue_id = ${row}.venue_id and status = ${row}.status and band = ${row}.band and priority = ${row}.priority`);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function entries_open_count() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status in ('active', 'called') then
          ${lower('old')};
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status in ('active', 'called') then
          ${upsert('new')};
        end if;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger entries_open_count after insert or update of status, priority, band, venue_id or delete on entries
      for each row execute function entries_open_count()
    `.execute(db);
    return;
  }
  await sql`
    create trigger entries_open_insert after insert on entries when new.status in ('active', 'called') begin
      ${upsert('new')};
    end
  `.execute(db);
  await sql`
    create trigger entries_open_update after update of status, priority, band, venue_id on entries
    when old.status in ('active', 'called') or new.status in ('active', 'called') begin
      update venue_open_counts set n = n - 1
      where old.status in ('active', 'called') and venue_id = old.venue_id and status = old.status and band = old.band and priority = old.priority;
      insert into venue_open_counts (venue_id, band, priority, status, n)
      select new.venue_id, new.band, new.priority, new.status, 1 where new.status in ('active', 'called')
      on conflict (venue_id, status, band, priority) do update set n = n + 1;
    end
  `.execute(db);
  await sql`
    create trigger entries_open_delete after delete on entries when old.status in ('active', 'called') begin
      ${lower('old')};
    end
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger entries_open_count on entries`.execute(db);
    await sql`drop function entries_open_count()`.execute(db);
  } else {
    for (const name of ['entries_open_insert', 'entries_open_update', 'entries_open_delete'])
      await sql`drop trigger ${sql.raw(name)}`.execute(db);
  }
  await db.schema.dropTable('venue_open_counts').execute();
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
