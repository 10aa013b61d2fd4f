import fs from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_BISTRO_ID, createBody } from '../../test/fixtures.js';
import { type TestApp, startTestApp } from '../../test/harness.js';
import { sqliteStore } from '../../test/stores.js';
import type { Db } from './connect.js';
import { runWriteTransaction } from './write-batch.js';

/**
 * The WAL's syncs, held until the test lets them go: `fs.fdatasync` as db/wal-sync.ts calls it.
 * `holding` false lets every sync through (the real one) as it comes.
 */
function heldSyncs() {
  type Held = { fd: number; done: (error: Error | null) => void; finished: boolean };
  const held: Held[] = [];
  let handedOut = 0;
  const callers: Array<() => void> = [];
  const realSync = fs.fdatasync;
  const control = {
    holding: true,
    count: 0,
    /** The next sync asked for (already asked, or the next to come). */
    async next(): Promise<{ fd: number; done: (error: Error | null) => void }> {
      while (held.length <= handedOut) await new Promise<void>((resolve) => callers.push(resolve));
      return held[handedOut++]!;
    },
    /** Every held sync done (the real one), and every later one let through. */
    releaseAll(): void {
      control.holding = false;
      for (const one of held) if (!one.finished) one.done(null);
    },
  };
  vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: Error | null) => void) => {
    control.count++;
    if (!control.holding) return realSync(fd, callback);
    const one: Held = {
      fd,
      finished: false,
      done: (error) => {
        if (one.finished) return;
        one.finished = true;
        if (error) callback(error);
        else realSync(fd, callback);
      },
    };
    held.push(one);
    for (const wake of callers.splice(0)) wake();
  }) as typeof fs.fdatasync);
  return control;
}

/** Settled within `turns` turns of the event loop (an answer not held by anything settles in a few). */
async function settledWithin<T>(promise: Promise<T>, turns = 50): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < turns && !settled; i++) await turn();
  return settled;
}

const venueRow = (id: string) => ({
  id,
  slug: `v-${id}`,
  name_pt: 'Casa',
  name_en: null,
  name_fr: null,
  name_es: null,
  city: '',
  neighborhood: '',
  has_menu: 0,
  login_journey: 0,
  max_party_size: 4,
  sections: '[]',
  settings: '{}',
  theme: '{}',
  waitlist_active: 1,
  waitlist_locked: 0,
  next_seq: 1,
  created_at: 0,
  updated_at: 0,
});
let ids = 0;
const nextId = () => (++ids).toString(16).padStart(24, 'b');
const insertVenue = (db: Db) => {
  const id = nextId();
  return runWriteTransaction(db, (trx) => trx.insertInto('venues').values(venueRow(id)).execute()).then(() => id);
};

/** SQLite commits synced off the event loop (db/wal-sync.ts, docs/decisions/059-commits-synced-off-the-event-loop.md). */
describe('SQLite commits, synced on the thread pool', () => {
  let db: Db & { location: { kind: string; file?: string } };
  beforeAll(async () => {
    db = await sqliteStore.open();
  });
  afterAll(async () => {
    await db.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a write resolves only after an fdatasync of the WAL that started after its commit', async () => {
    const file = db.location.file as string;
    const mode: unknown = await sql`pragma synchronous`.execute(db.kysely).then((r) => r.rows[0]);
    expect(mode).toEqual({ synchronous: 1 }); // NORMAL: the COMMIT itself waits for no disk
    const syncs = heldSyncs();
    const write = insertVenue(db);
    const sync = await syncs.next();
    // The sync is of the WAL, and the commit was made before it: another connection reads the row.
    expect(fs.readlinkSync(`/proc/self/fd/${sync.fd}`)).toBe(`${file}-wal`);
    const other = new SQLite(file, { readonly: true });
    expect(other.prepare('select count(*) as n from venues').get()).toEqual({ n: 1 });
    other.close();
    expect(await settledWithin(write)).toBe(false);
    syncs.releaseAll();
    await expect(write).resolves.toMatch(/^b*1$/);
  });

  it('one sync serves the commits made before it starts; a commit made during it waits for the next', async () => {
    const syncs = heldSyncs();
    const first = insertVenue(db);
    const firstSync = await syncs.next();
    const second = insertVenue(db);
    // The second commit is made while the first sync runs; give it every chance to be answered by it.
    expect(await settledWithin(second)).toBe(false);
    firstSync.done(null);
    await first;
    expect(await settledWithin(second)).toBe(false);
    const secondSync = await syncs.next();
    secondSync.done(null);
    await second;
    expect(syncs.count).toBe(2);
    // Nothing committed since: nothing to wait for, no sync.
    expect(db.durable?.()).toBeUndefined();
  });

  it('counts commits, not reads: a write of its own, a transaction at its end, a write that returns rows', async () => {
    heldSyncs().releaseAll();
    await db.durable?.();
    await db.kysely.selectFrom('venues').selectAll().execute();
    expect(db.durable?.()).toBeUndefined();

    await db.kysely.insertInto('venues').values(venueRow(nextId())).execute();
    const own = db.durable?.();
    expect(own).toBeInstanceOf(Promise);
    await own;

    await db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('venues').values(venueRow(nextId())).execute();
      // Not committed yet: a sync now would not hold it.
      expect(db.durable?.()).toBeUndefined();
    });
    const committed = db.durable?.();
    expect(committed).toBeInstanceOf(Promise);
    await committed;

    await db.kysely.insertInto('venues').values(venueRow(nextId())).returning('id').execute();
    expect(db.durable?.()).toBeInstanceOf(Promise);
    await db.durable?.();
  });

  it('a failed sync fails every write after it: the kernel may have dropped what it could not write', async () => {
    const syncs = heldSyncs();
    const write = insertVenue(db);
    (await syncs.next()).done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(write).rejects.toThrow(/SQLite WAL sync failed: EIO/);
    syncs.releaseAll();
    await expect(insertVenue(db)).rejects.toThrow(/SQLite WAL sync failed/);
  });
});

describe('answers after the commits before them are on disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(sqliteStore);
    await t.db.durable?.();
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("a join's answer leaves once its commit is synced", async () => {
    const syncs = heldSyncs();
    const answer = t.app.inject({ method: 'POST', url: `/api/waitlists/${DEMO_BISTRO_ID}/create`, payload: createBody() });
    await syncs.next();
    expect(await settledWithin(answer)).toBe(false);
    syncs.releaseAll();
    expect((await answer).statusCode).toBe(201);
  });

  it('a read waits for the sync of a commit made before it, and answers at once with none to wait for', async () => {
    await t.db.durable?.();
    const syncs = heldSyncs();
    const read = () => t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
    expect((await read()).statusCode).toBe(200);
    expect(syncs.count).toBe(0);
    // A commit of another kind of work (outside the write batch), whose sync has not run yet.
    await t.db.kysely.updateTable('venues').set({ updated_at: 1 }).where('id', '=', DEMO_BISTRO_ID).execute();
    const answer = read();
    await syncs.next();
    expect(await settledWithin(answer)).toBe(false);
    syncs.releaseAll();
    expect((await answer).statusCode).toBe(200);
  });
});

describe('a failed sync, answered', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(sqliteStore);
    await t.db.durable?.();
  });
  afterAll(async () => {
    await t.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers an error, never the data, to the write and to every answer after it', async () => {
    const syncs = heldSyncs();
    const answer = t.app.inject({ method: 'POST', url: `/api/waitlists/${DEMO_BISTRO_ID}/create`, payload: createBody() });
    (await syncs.next()).done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    const failed = await answer;
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain('_id');
    const read = await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
    expect(read.statusCode).toBe(500);
    expect(read.body).not.toContain(DEMO_BISTRO_ID);
    // A balancer stops sending it work: the instance must be restarted (docs/deploy.md).
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(500);
  });
});
