import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { openDb } from '../src/db/connect.js';
import { DEMO_BISTRO_ID, createBody } from './fixtures.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { seedUncappedDemo } from './uncapped-demo.js';
import { postgresUrl } from './stores.js';

const JOINS = 400;
/** SIGKILL once this many joins were answered: the rest are in flight or not sent yet. */
const KILL_AFTER = 120;

interface Target {
  name: 'sqlite' | 'postgres';
  /** A fresh, empty store for the server to create and seed; returns its DATABASE_URL. */
  create(): Promise<{ databaseUrl: string; database: Config['database']; drop(): Promise<void> }>;
}

const sqliteTarget: Target = {
  name: 'sqlite',
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-crash-'));
    const file = path.join(dir, 'vez.db');
    return {
      databaseUrl: `file:${file}`,
      database: { kind: 'sqlite', file },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** A database of its own: the server runs its migrations and seed in it as on a first start. */
const postgresTarget: Target = {
  name: 'postgres',
  async create() {
    const name = `vez_crash_${randomBytes(5).toString('hex')}`;
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    return {
      databaseUrl: url.toString(),
      database: { kind: 'postgres', url: url.toString() },
      drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  },
};

const targets = postgresUrl ? [sqliteTarget, postgresTarget] : [sqliteTarget];

interface Acked {
  id: string;
  globalPos: number;
}

/** Every join answered with success survives a SIGKILL of the server, with its position. */
describe.each(targets)('a server killed in the middle of joins ($name)', (target) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it(`keeps every answered join of ${JOINS} after SIGKILL and restart`, { timeout: 180_000 }, async () => {
    const store = await target.create();
    cleanup.push(store.drop);
    // One address sends every join, all to the demo bistro: no per-address limits, and no cap of
    // waiting parties there (docs/product.md §3), which 400 joins would pass.
    const env = {
      DATABASE_URL: store.databaseUrl,
      RATE_LIMIT_JOINS_PER_10_MIN: '100000',
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000',
    };
    await seedUncappedDemo(store.database);

    const first = await startServerProcess(env);
    cleanup.push(() => first.stop('SIGKILL'));
    const acked: Acked[] = [];
    let failed = 0;
    let killed = false;
    const join = async () => {
      try {
        const res = await fetch(`${first.url}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(createBody()),
        });
        const body = (await res.json()) as { _id: string; globalPos: number };
        // Only a whole 2xx answer counts as a promise made to a diner.
        if (res.status >= 200 && res.status < 300) acked.push({ id: body._id, globalPos: body.globalPos });
        else failed += 1;
      } catch {
        failed += 1; // cut off by the kill: the join may or may not have committed
      }
      if (!killed && acked.length >= KILL_AFTER) {
        killed = true;
        first.child.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: JOINS }, join));
    await first.stop('SIGKILL');
    expect(first.child.signalCode).toBe('SIGKILL');
    // The kill landed in the middle: some joins were answered, some were cut off.
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(failed).toBeGreaterThan(0);
    expect(acked.length + failed).toBe(JOINS);

    const second = await startServerProcess(env);
    cleanup.push(() => second.stop('SIGKILL'));
    await expectAllPresent(second, acked);

    // The store is whole: the tickets of the venue run 1..n with no gap and no repeat.
    const db = openDb(store.database);
    try {
      const rows = await db.kysely
        .selectFrom('entries')
        .select(['id', 'seq'])
        .where('venue_id', '=', DEMO_BISTRO_ID)
        .orderBy('seq')
        .execute();
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      const ids = new Set(rows.map((r) => r.id));
      expect(acked.filter((a) => !ids.has(a.id))).toEqual([]);
      expect(rows.length).toBeLessThanOrEqual(JOINS + 10);
    } finally {
      await db.close();
    }

    // And it takes new joins after the restart, behind everyone who was there.
    const res = await fetch(`${second.url}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createBody()),
    });
    expect(res.status).toBe(201);
    const late = (await res.json()) as { globalPos: number };
    expect(late.globalPos).toBeGreaterThan(Math.max(...acked.map((a) => a.globalPos)));
    await second.stop('SIGTERM');
  });
});

async function expectAllPresent(server: ServerProcess, acked: Acked[]): Promise<void> {
  const missing: string[] = [];
  const tabs = new Set<string>();
  for (const entry of acked) {
    const res = await fetch(`${server.url}/api/waitlists/${entry.id}/position`);
    if (res.status !== 200) {
      missing.push(`${entry.id}: ${res.status}`);
      continue;
    }
    const { waitlist } = (await res.json()) as { waitlist: { status: string; globalPos: number; customerTab: string } };
    expect(waitlist.status).toBe('active');
    // Nobody ahead left, and later joins queue behind: the place is the one the join answered.
    expect(waitlist.globalPos).toBe(entry.globalPos);
    tabs.add(waitlist.customerTab);
  }
  expect(missing).toEqual([]);
  expect(tabs.size).toBe(acked.length);
}
