import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen in time: never import app code here.
// How many parties wait (status 'active') at each venue, per priority, kept by triggers in the
// same transaction as every change of an entry, whatever code makes it: a join learns its own
// place from this row instead of counting the venue's whole queue (O(queue) per join).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the app's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venue_waiting')
    .addColumn('venue_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('waiting', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('venue_waiting_pk', ['venue_id', 'priority'])
    .execute();
  await sql`
    insert into venue_waiting (venue_id, priority, waiting)
    select venue_id, priority, count(*) from entries where status = 'active' group by venue_id, priority
  `.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function entries_waiting_count() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'active' then
          update venue_waiting set waiting = waiting - 1 where venue_id = old.venue_id and priority = old.priority;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'active' then
          insert into venue_waiting (venue_id, priority, waiting) values (new.venue_id, new.priority, 1)
          on conflict (venue_id, priority) do update set waiting = venue_waiting.waiting + 1;
        end if;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger entries_waiting after insert or update of status, priority, venue_id or delete on entries
      for each row execute function entries_waiting_count()
    `.execute(db);
    return;
  }
  await sql`
    create trigger entries_waiting_insert after insert on entries when new.status = 'active' begin
      insert into venue_waiting (venue_id, priority, waiting) values (new.venue_id, new.priority, 1)
      on conflict (venue_id, priority) do update set waiting = waiting + 1;
    end
  `.execute(db);
  await sql`
    create trigger entries_waiting_update after update of status, priority, venue_id on entries
    when old.status = 'active' or new.status = 'active' begin
      update venue_waiting set waiting = waiting - 1 where old.status = 'active' and venue_id = old.venue_id and priority = old.priority;
      insert into venue_waiting (venue_id, priority, waiting) select new.venue_id, new.priority, 1 where new.status = 'active'
      on conflict (venue_id, priority) do update set waiting = waiting + 1;
    end
  `.execute(db);
  await sql`
    create trigger entries_waiting_delete after delete on entries when old.status = 'active' begin
      update venue_waiting set waiting = waiting - 1 where venue_id = old.venue_id and priority = old.priority;
    end
  `.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger entries_waiting on entries`.execute(db);
    await sql`drop function entries_waiting_count()`.execute(db);
  } else {
    for (const name of ['entries_waiting_insert', 'entries_waiting_update', 'entries_waiting_delete'])
      await sql`drop trigger ${sql.raw(name)}`.execute(db);
  }
  await db.schema.dropTable('venue_waiting').execute();
}
