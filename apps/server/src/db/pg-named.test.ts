import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPostgresSchema, postgresStore, postgresUrl } from '../../test/stores.js';
import { findEntryById } from '../modules/queue/entries.repository.js';
import { findPaceRows } from '../modules/estimate/paces.repository.js';
import { compiledOnce } from './compiled-once.js';
import { type Db, openDb } from './connect.js';
import { nameStatement, nameStatementsOf, statementNameOf } from './pg-named.js';
import type { Database } from './types.js';

/**
 * docs/decisions/070-named-statements-on-postgresql.md: on PostgreSQL the statements compiled once
 * run as named prepared statements, prepared once per connection; one whose columns come from `*`
 * only outside a transaction; a statement whose result columns a migration changed answers again
 * unnamed (outside a transaction, at once; inside one, after failing that transaction).
 */
const opened: { db: Db; schema: string }[] = [];
afterEach(async () => {
  for (const { db, schema } of opened.splice(0)) {
    await db.close();
    await dropPostgresSchema(schema);
  }
});

/** A store of one connection (so every statement meets the same session) with a table of its own. */
async function open(options: { namedStatements?: false } = {}): Promise<Kysely<Database>> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.query(`create table ${schema}.named_rows (id integer primary key, label varchar(20) not null)`);
  await admin.query(`insert into ${schema}.named_rows values (1, 'one'), (2, 'two'), (3, 'three')`);
  await admin.end();
  const db = openDb({ kind: 'postgres', url: postgresUrl! }, { schema, poolSize: 1, ...options });
  opened.push({ db, schema });
  return db.kysely;
}

// Each statement's text is new to this process (the names are kept by text, process-wide): a table
// alias of its own.
const tag = () => `r_${randomBytes(3).toString('hex')}`;
const labelOf = (t: string) =>
  compiledOnce<{ id: number }, { label: string }>((db, arg) =>
    sql<{ label: string }>`select label from named_rows as ${sql.raw(t)} where id = ${arg('id')}`.compile(db),
  );
const rowOf = (t: string) =>
  compiledOnce<{ id: number }, { id: number; label: string }>((db, arg) =>
    sql<{ id: number; label: string }>`select * from named_rows as ${sql.raw(t)} where id = ${arg('id')}`.compile(db),
  );

/** The statements this session has prepared, by name. */
async function prepared(db: Kysely<Database>): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
  return new Map(rows.map((r) => [r.name, r.statement]));
}

describe.skipIf(!postgresUrl)('named statements on PostgreSQL', () => {
  it('prepares a statement compiled once under its name, once per connection, with the same rows', async () => {
    const db = await open();
    const label = labelOf(tag());
    expect((await label(db, { id: 2 })).rows).toEqual([{ label: 'two' }]);
    expect((await label(db, { id: 3 })).rows).toEqual([{ label: 'three' }]);
    const [text] = [...(await prepared(db)).values()];
    const name = statementNameOf(text!);
    expect(name).toMatch(/^vez_\d+$/);
    expect([...(await prepared(db)).keys()]).toEqual([name]);
  });

  it('sends them unnamed with namedStatements: false (the bench compares both)', async () => {
    const db = await open({ namedStatements: false });
    const label = labelOf(tag());
    expect((await label(db, { id: 1 })).rows).toEqual([{ label: 'one' }]);
    expect((await prepared(db)).size).toBe(0);
  });

  it('names a statement reading `*` outside a transaction only', async () => {
    const db = await open();
    const row = rowOf(tag());
    await db.transaction().execute(async (trx) => {
      expect((await row(trx, { id: 1 })).rows).toEqual([{ id: 1, label: 'one' }]);
      expect((await prepared(trx)).size).toBe(0);
    });
    expect((await row(db, { id: 1 })).rows).toEqual([{ id: 1, label: 'one' }]);
    expect((await prepared(db)).size).toBe(1);
  });

  it('names the hot reads of whole rows, inside a transaction too: they list their columns, not `*`', async () => {
    const store = await postgresStore.open();
    try {
      await store.kysely.transaction().execute(async (trx) => {
        await findEntryById(trx, 'none');
        await findPaceRows(trx, 'none', 0);
        const statements = [...(await prepared(trx)).entries()];
        expect(statements.map(([, text]) => text.match(/from "(\w+)"/)?.[1]).sort()).toEqual(['entries', 'venue_pace', 'venue_pace_slots']);
        for (const [name, text] of statements) {
          expect(name).toBe(statementNameOf(text));
          expect(text).not.toContain('*');
        }
      });
    } finally {
      await store.close();
    }
  });

  it('takes `count(*)` and a comment for what they are, not for every column', async () => {
    const db = await open();
    const t = tag();
    const counted = compiledOnce<{ id: number }, { n: number }>((db, arg) =>
      sql<{ n: number }>`select count(*) as n from named_rows as ${sql.raw(t)} /* rows */ where id <= ${arg('id')}`.compile(db),
    );
    await db.transaction().execute(async (trx) => {
      expect((await counted(trx, { id: 2 })).rows).toEqual([{ n: 2 }]);
      expect((await prepared(trx)).size).toBe(1);
    });
  });

  it('answers a statement reading `*` after a migration added a column: unnamed from then on, nothing fails', async () => {
    const db = await open();
    const row = rowOf(tag());
    expect((await row(db, { id: 2 })).rows).toEqual([{ id: 2, label: 'two' }]);
    const [text] = [...(await prepared(db)).values()];
    expect(statementNameOf(text!)).toBeDefined();
    // What a newer instance's migration does during a rolling restart (docs/deploy.md).
    await sql`alter table named_rows add column note text`.execute(db);
    expect((await row(db, { id: 2 })).rows).toEqual([{ id: 2, label: 'two', note: null }]);
    expect(statementNameOf(text!)).toBeUndefined();
    expect((await row(db, { id: 3 })).rows).toEqual([{ id: 3, label: 'three', note: null }]);
  });

  it("fails once, inside a transaction, a statement whose column's type a migration changed, then runs it unnamed", async () => {
    const db = await open();
    const label = labelOf(tag());
    expect((await label(db, { id: 1 })).rows).toEqual([{ label: 'one' }]);
    await sql`alter table named_rows alter column label type text`.execute(db);
    await expect(db.transaction().execute((trx) => label(trx, { id: 1 }))).rejects.toThrow(/cached plan must not change result type/);
    await db.transaction().execute(async (trx) => {
      expect((await label(trx, { id: 1 })).rows).toEqual([{ label: 'one' }]);
    });
    expect((await label(db, { id: 3 })).rows).toEqual([{ label: 'three' }]);
  });
});

/**
 * docs/decisions/072-begin-with-the-first-statement.md: a transaction's BEGIN goes with its first
 * statement, one round trip (one ReadyForQuery) less, with the same outcome as sent alone.
 */
describe.skipIf(!postgresUrl)("a transaction's BEGIN with its first statement", () => {
  /** A pool of one connection made as openDb makes it, with a table of its own, and a count of the round trips it ends. */
  async function pool(options: { beginWithFirst?: boolean } = {}) {
    await open();
    const { schema } = opened.at(-1)!;
    const p = new pg.Pool({ connectionString: postgresUrl, max: 1, options: `-c search_path=${schema}` });
    nameStatementsOf(p, options);
    const trips = { n: 0 };
    p.on('connect', (client) => {
      (client as unknown as { connection: pg.Connection }).connection.on('readyForQuery', () => (trips.n += 1));
    });
    const client = await p.connect();
    trips.n = 0;
    /** What another session sees: what has been committed. */
    const committed = async () => {
      const other = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
      await other.connect();
      const { rows } = await other.query<{ id: number }>('select id from named_rows order by id');
      await other.end();
      return rows.map((r) => r.id);
    };
    return { p, client, trips, committed, end: () => p.end() };
  }

  it('sends it with the first statement: the same rows committed, one round trip less than sent alone', async () => {
    for (const beginWithFirst of [true, false]) {
      const { client, trips, committed, end } = await pool({ beginWithFirst });
      await client.query('begin', []);
      await client.query('insert into named_rows values ($1, $2)', [4, 'four']);
      expect((await client.query('select label from named_rows where id = $1', [4])).rows).toEqual([{ label: 'four' }]);
      await client.query('commit', []);
      expect(trips.n).toBe(beginWithFirst ? 3 : 4);
      expect(await committed()).toEqual([1, 2, 3, 4]);
      client.release();
      await end();
    }
  });

  it('rolls back as sent alone, and a first statement that fails ends its transaction as before', async () => {
    const { client, committed, end } = await pool();
    await client.query('begin', []);
    await client.query('insert into named_rows values ($1, $2)', [5, 'five']);
    await client.query('rollback', []);
    await client.query('begin', []);
    await expect(client.query('insert into named_rows values ($1, $2)', [1, 'again'])).rejects.toMatchObject({ code: '23505' });
    await expect(client.query('select 1 as one where 1 = $1', [1])).rejects.toMatchObject({ code: '25P02' });
    await client.query('rollback', []);
    // Outside a transaction again: the next statement commits on its own.
    await client.query('insert into named_rows values ($1, $2)', [6, 'six']);
    expect(await committed()).toEqual([1, 2, 3, 6]);
    client.release();
    await end();
  });

  it('sends nothing for a transaction ended before any statement, and hands the next user no transaction', async () => {
    const { p, client, trips, committed, end } = await pool();
    await client.query('begin', []);
    await client.query('commit', []);
    expect(trips.n).toBe(0);
    await client.query('begin', []);
    client.release();
    // The same connection (a pool of one), its BEGIN never sent: this insert commits by itself.
    const next = await p.connect();
    await next.query('insert into named_rows values ($1, $2)', [7, 'seven']);
    expect(await committed()).toEqual([1, 2, 3, 7]);
    next.release();
    await end();
  });

  it('sends a named statement not yet prepared on the connection after the BEGIN, then with it once prepared', async () => {
    const { client, trips, end } = await pool();
    const text = `select label from named_rows as ${tag()} where id = $1`;
    nameStatement(text);
    for (const expected of [3, 2]) {
      trips.n = 0;
      await client.query('begin', []);
      expect((await client.query(text, [2])).rows).toEqual([{ label: 'two' }]);
      await client.query('commit', []);
      expect(trips.n).toBe(expected);
    }
    const { rows } = await client.query<{ name: string }>('select name from pg_prepared_statements', []);
    expect(rows.map((r) => r.name)).toEqual([statementNameOf(text)]);
    client.release();
    await end();
  });

  it('sends it alone before a text without values (it may hold several statements)', async () => {
    const { client, trips, committed, end } = await pool();
    await client.query('begin', []);
    await client.query("insert into named_rows values (8, 'eight'); insert into named_rows values (9, 'nine')", []);
    await client.query('commit', []);
    expect(trips.n).toBe(3);
    expect(await committed()).toEqual([1, 2, 3, 8, 9]);
    client.release();
    await end();
  });
});
