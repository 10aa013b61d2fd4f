import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../../test/stores.js';
import { columnsOf, compileEachTime, compiledOnce } from './compiled-once.js';
import type { Db } from './connect.js';
import type { MessageTable } from './types.js';
import { runWriteTransaction } from './write-batch.js';

/** A query built and compiled once per dialect (and shape) answers each run with that run's arguments. */
describe.each(stores)('queries compiled once on $name', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = await store.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('fills in each run its own arguments, keeps the values the query fixed, and builds the query once', async () => {
    let builds = 0;
    const optOut = compiledOnce<{ phone: string; before: number }, { phone: string }>((kysely, arg) => {
      builds++;
      return kysely
        .selectFrom('sms_opt_outs')
        .select('phone')
        .where('phone', '=', arg('phone'))
        .where('created_at', '<', arg('before'))
        .where('created_at', 'in', [1, 2])
        .compile();
    });
    await db.kysely
      .insertInto('sms_opt_outs')
      .values([
        { phone: '+5511900000001', created_at: 1 },
        { phone: '+5511900000002', created_at: 2 },
        { phone: '+5511900000003', created_at: 3 },
      ])
      .execute();
    expect((await optOut(db.kysely, { phone: '+5511900000001', before: 10 })).rows).toEqual([{ phone: '+5511900000001' }]);
    expect((await optOut(db.kysely, { phone: '+5511900000002', before: 2 })).rows).toEqual([]);
    expect((await optOut(db.kysely, { phone: '+5511900000002', before: 3 })).rows).toEqual([{ phone: '+5511900000002' }]);
    // Fixed by the query: created_at in (1, 2).
    expect((await optOut(db.kysely, { phone: '+5511900000003', before: 10 })).rows).toEqual([]);
    // Inside a transaction too, on its connection.
    const inside = await runWriteTransaction(db, async (trx) => (await optOut(trx, { phone: '+5511900000001', before: 10 })).rows);
    expect(inside).toEqual([{ phone: '+5511900000001' }]);
    expect(builds).toBe(1);
  });

  it('compiles an insert once per set of columns, leaving out undefined ones as the query builder does', async () => {
    let builds = 0;
    type Row = Pick<MessageTable, 'id' | 'channel' | 'recipient' | 'body' | 'idempotency_key' | 'created_at'> & { subject?: string | null };
    const insert = compiledOnce<Row>((kysely, arg, row) => {
      builds++;
      const columns = (Object.keys(row) as (keyof Row)[]).filter((column) => row[column] !== undefined);
      const values = Object.fromEntries(columns.map((column) => [column, arg(column)])) as Row;
      return kysely
        .insertInto('messages')
        .values({ ...values, status: 'pending', attempts: 0, next_attempt_at: arg('created_at') })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .compile();
    }, columnsOf);
    const row = (n: number, subject?: string | null): Row => ({
      id: `m${n}`,
      channel: 'email',
      recipient: 'a@example.com',
      body: `body ${n}`,
      idempotency_key: `k${n}`,
      created_at: n,
      ...(subject !== undefined ? { subject } : {}),
    });
    expect(Number((await insert(db.kysely, row(1))).numAffectedRows)).toBe(1);
    expect(Number((await insert(db.kysely, row(2, 'Hello'))).numAffectedRows)).toBe(1);
    expect(Number((await insert(db.kysely, { ...row(3), subject: undefined })).numAffectedRows)).toBe(1);
    // The same key again: nothing inserted.
    expect(Number((await insert(db.kysely, { ...row(4), idempotency_key: 'k1' })).numAffectedRows)).toBe(0);
    const stored = await db.kysely
      .selectFrom('messages')
      .select(['id', 'subject', 'body', 'status', 'next_attempt_at'])
      .where('id', 'in', ['m1', 'm2', 'm3', 'm4'])
      .orderBy('id')
      .execute();
    expect(stored.map((m) => ({ ...m, next_attempt_at: Number(m.next_attempt_at) }))).toEqual([
      { id: 'm1', subject: null, body: 'body 1', status: 'pending', next_attempt_at: 1 },
      { id: 'm2', subject: 'Hello', body: 'body 2', status: 'pending', next_attempt_at: 2 },
      { id: 'm3', subject: null, body: 'body 3', status: 'pending', next_attempt_at: 3 },
    ]);
    // Without a subject (rows 1, 3 and 4) and with one (row 2).
    expect(builds).toBe(2);
  });

  it('builds the query on every run, with the same answers, where the bench asks for the simpler way', async () => {
    const other = await store.open();
    try {
      compileEachTime(other.kysely);
      let builds = 0;
      const optOut = compiledOnce<{ phone: string }, { phone: string }>((kysely, arg) => {
        builds++;
        return kysely.selectFrom('sms_opt_outs').select('phone').where('phone', '=', arg('phone')).compile();
      });
      await other.kysely.insertInto('sms_opt_outs').values({ phone: '+5511900000009', created_at: 1 }).execute();
      expect((await optOut(other.kysely, { phone: '+5511900000009' })).rows).toEqual([{ phone: '+5511900000009' }]);
      expect((await optOut(other.kysely, { phone: '+5511900000008' })).rows).toEqual([]);
      expect(builds).toBe(2);
      // Another store of the same kind still compiles it once.
      await optOut(db.kysely, { phone: '+5511900000009' });
      await optOut(db.kysely, { phone: '+5511900000008' });
      expect(builds).toBe(3);
    } finally {
      await other.close();
    }
  });
});
