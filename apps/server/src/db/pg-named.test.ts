import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPostgresSchema, postgresStore, postgresUrl } from '../../test/stores.js';
import { findEntryById } from '../modules/queue/entries.repository.js';
import { findPaceRows } from '../modules/estimate/paces.repository.js';
import { compiledOnce } from './compiled-once.js';
import { type Db, openDb } from './connect.js';
import { statementNameOf } from './pg-named.js';
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
