import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compiledOnce } from './compiled-once.js';
import { type Db, migrateToLatest, openDb } from './connect.js';
import { runWriteTransaction } from './write-batch.js';

/**
 * docs/decisions/058-joins-straight-to-sqlite.md: on SQLite a statement compiled once runs straight
 * on better-sqlite3 where the connection is certainly its own (a write batch's transaction, or
 * nobody holding it), and through Kysely's executor, waiting its turn, anywhere else.
 */
const optOut = compiledOnce<{ phone: string }, { phone: string }>((db, arg) =>
  db.selectFrom('sms_opt_outs').select('phone').where('phone', '=', arg('phone')).compile(),
);
const addOptOut = compiledOnce<{ phone: string }>((db, arg) =>
  db
    .insertInto('sms_opt_outs')
    .values({ phone: arg('phone'), created_at: 1 })
    .compile(),
);

let db: Db | undefined;
async function open(options: { straightToSqlite?: false } = {}): Promise<Db> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-straight-'));
  db = openDb({ kind: 'sqlite', file: path.join(dir, 'vez.db') }, options);
  await migrateToLatest(db);
  return db;
}
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.close();
  db = undefined;
});

describe('SQLite statements compiled once, straight on better-sqlite3', () => {
  it('run straight when nobody holds the connection, and inside a write batch', async () => {
    const store = await open();
    const throughKysely = vi.spyOn(Kysely.prototype, 'executeQuery');
    await addOptOut(store.kysely, { phone: '+5511900000001' });
    expect((await optOut(store.kysely, { phone: '+5511900000001' })).rows).toEqual([{ phone: '+5511900000001' }]);
    const inBatch = await runWriteTransaction(store, async (trx) => {
      await addOptOut(trx, { phone: '+5511900000002' });
      return (await optOut(trx, { phone: '+5511900000002' })).rows;
    });
    expect(inBatch).toEqual([{ phone: '+5511900000002' }]);
    expect(throughKysely).not.toHaveBeenCalled();
  });

  it('wait their turn through Kysely while a transaction holds the connection, and see only what it committed', async () => {
    const store = await open();
    const throughKysely = vi.spyOn(Kysely.prototype, 'executeQuery');
    let inside!: () => void;
    const holding = new Promise<void>((resolve) => (inside = resolve));
    let finish!: () => void;
    const batch = runWriteTransaction(store, async (trx) => {
      await addOptOut(trx, { phone: '+5511900000003' });
      inside();
      await new Promise<void>((resolve) => (finish = resolve));
    });
    await holding;
    let read: unknown;
    const reading = optOut(store.kysely, { phone: '+5511900000003' }).then((r) => (read = r.rows));
    // The read waits for the connection: not answered while the batch holds it, uncommitted row unseen.
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBeUndefined();
    expect(throughKysely).toHaveBeenCalledTimes(1);
    finish();
    await batch;
    await reading;
    expect(read).toEqual([{ phone: '+5511900000003' }]);
  });

  it('a transaction that ended runs nothing straight, and a failing statement is a rejection', async () => {
    const store = await open();
    let kept: Kysely<never> | undefined;
    await runWriteTransaction(store, async (trx) => {
      kept = trx as never;
    });
    await expect(async () => optOut(kept as never, { phone: '+5511900000004' })).rejects.toThrow(/committed/);
    await addOptOut(store.kysely, { phone: '+5511900000005' });
    const again = addOptOut(store.kysely, { phone: '+5511900000005' });
    await expect(again).rejects.toThrow(/UNIQUE|constraint/i);
  });

  it('with straightToSqlite: false (the bench simpler way), every statement goes through Kysely', async () => {
    const store = await open({ straightToSqlite: false });
    const throughKysely = vi.spyOn(Kysely.prototype, 'executeQuery');
    await addOptOut(store.kysely, { phone: '+5511900000006' });
    await runWriteTransaction(store, async (trx) => optOut(trx, { phone: '+5511900000006' }));
    // The insert, the select, and the batch's savepoint and its release around the select.
    expect(throughKysely).toHaveBeenCalledTimes(4);
  });
});
