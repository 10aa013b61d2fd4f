import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compiledOnce } from './compiled-once.js';
import { sqliteStore } from '../../test/stores.js';
import { type Db, openDb } from './connect.js';

/**
 * docs/decisions/061-limits-written-in-the-statement.md: on SQLite a LIMIT or OFFSET given as a
 * number is written into the statement (a bound one makes SQLite prepare the statement again at
 * every run); an argument of a statement compiled once stays bound, and the rows are the same.
 */
let db: Db | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.close();
  db = undefined;
});

async function open(): Promise<Db> {
  db = await sqliteStore.open();
  for (let i = 0; i < 6; i++)
    await db.kysely
      .insertInto('sms_opt_outs')
      .values({ phone: `+5511900000${i}`, created_at: i })
      .execute();
  return db;
}

const byArgument = compiledOnce<{ n: number }, { phone: string }>((db, arg) =>
  db.selectFrom('sms_opt_outs').select('phone').orderBy('created_at').limit(arg('n')).compile(),
);

describe('counts written into SQLite statements', () => {
  it('writes a LIMIT and an OFFSET given as numbers, binds the rest, and answers the same rows', async () => {
    const store = await open();
    const query = store.kysely
      .selectFrom('sms_opt_outs')
      .select('phone')
      .where('created_at', '>=', 1)
      .orderBy('created_at')
      .limit(3)
      .offset(1);
    const compiled = query.compile();
    expect(compiled.sql).toMatch(/ limit 3 offset 1$/);
    expect(compiled.parameters).toEqual([1]);
    expect((await query.execute()).map((r) => r.phone)).toEqual(['+55119000002', '+55119000003', '+55119000004']);
    // A subquery's count too (as countOpenFromAddress and the message worker's claim have).
    const inner = store.kysely.selectFrom('sms_opt_outs').select('phone').limit(2).as('few');
    const counted = store.kysely.selectFrom(inner).select((eb) => eb.fn.countAll<number>().as('n'));
    expect(counted.compile().sql).toContain('limit 2)');
    expect(Number((await counted.executeTakeFirstOrThrow()).n)).toBe(2);
  });

  it("keeps a statement compiled once's argument bound: one statement for every count", async () => {
    const store = await open();
    const prepared = vi.spyOn(SQLite.prototype, 'prepare');
    expect((await byArgument(store.kysely, { n: 2 })).rows.map((r) => r.phone)).toEqual(['+55119000000', '+55119000001']);
    expect((await byArgument(store.kysely, { n: 4 })).rows).toHaveLength(4);
    const statements = prepared.mock.calls.map(([sql]) => sql).filter((sql) => sql.includes('sms_opt_outs'));
    expect(statements).toEqual(['select "phone" from "sms_opt_outs" order by "created_at" limit ?']);
  });

  it('leaves PostgreSQL bound', () => {
    const pg = openDb({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/test' });
    try {
      expect(pg.kysely.selectFrom('sms_opt_outs').select('phone').limit(3).compile().sql).toMatch(/ limit \$1$/);
    } finally {
      void pg.close();
    }
  });
});
