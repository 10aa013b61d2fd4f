import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
import { seedDemo } from '../seed/demo.js';
import { type Db, migrateToLatest, openDb } from './connect.js';
import { migrations } from './migrations/index.js';

/** The waiting parties per venue and priority, counted from the entries: `venue/priority` -> n. */
async function countWaiting(db: Db): Promise<Record<string, number>> {
  const { rows } = await sql<{ venue_id: string; priority: number; n: number | string }>`
    select venue_id, priority, count(*) as n from entries where status = 'active' group by venue_id, priority
  `.execute(db.kysely);
  return Object.fromEntries(rows.map((r) => [`${r.venue_id}/${r.priority}`, Number(r.n)]));
}

/** The waiting counts that triggers keep (migration 005) always equal a count of the entries. */
describe.each(stores)('waiting counts on $name', (store) => {
  const t = useTestApp(store);

  async function kept(): Promise<Record<string, number>> {
    const rows = await t.db.kysely.selectFrom('venue_waiting').selectAll().where('waiting', '<>', 0).execute();
    return Object.fromEntries(rows.map((r) => [`${r.venue_id}/${r.priority}`, Number(r.waiting)]));
  }
  const counted = () => countWaiting(t.db);

  it('follow every change of an entry, whatever makes it', async () => {
    expect(await kept()).toEqual(await counted()); // the demo's parties, counted by the migration
    const join = async (venue: string) =>
      (await postJoin(t, {}, { venueId: venue })).json() as {
        _id: string;
        globalPos: number;
      };
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await join(i % 2 ? DEMO_CLUB_ID : DEMO_BISTRO_ID))._id);
    expect(await kept()).toEqual(await counted());

    const set = (id: string, patch: Record<string, unknown>) =>
      t.db.kysely.updateTable('entries').set(patch).where('id', '=', id).execute();
    await set(ids[0]!, { status: 'called' }); // active -> called
    await set(ids[1]!, { priority: 1 }); // moves to the priority count
    await set(ids[2]!, { status: 'seated', priority: 1 }); // both at once
    await set(ids[0]!, { status: 'active' }); // back (a host's undo)
    await set(ids[3]!, { notified_at: 1 }); // no change of count
    await set(ids[3]!, { status: 'active' }); // same status written again
    await t.app.inject({ method: 'PUT', url: `/api/waitlists/${ids[4]}/${DEMO_BISTRO_ID}/cancel`, payload: { cancelReason: 'Customer' } });
    await t.db.kysely.deleteFrom('entries').where('id', '=', ids[5]!).execute();
    expect(await kept()).toEqual(await counted());
  });

  it('give a join its place, priority parties ahead, as a full count does', async () => {
    const first = await postJoin(t);
    const { _id, globalPos } = first.json() as { _id: string; globalPos: number };
    const read = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${_id}/position` })).json() as {
      waitlist: { globalPos: number };
    };
    expect(globalPos).toBe(read.waitlist.globalPos);
    expect(globalPos).toBe((await counted())[`${DEMO_BISTRO_ID}/0`]! + ((await counted())[`${DEMO_BISTRO_ID}/1`] ?? 0));
  });
});

describe('waiting counts on a store that had entries before migration 005', () => {
  it('start from a count of the entries already waiting', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-005-'));
    const db = openDb({ kind: 'sqlite', file: path.join(dir, 'vez.db') });
    try {
      const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('004-images')).error).toBeUndefined();
      // The demo's waiting parties, written before the triggers exist (its staff need migration 012).
      await seedDemo(db, Date.now(), { staff: false });
      await db.kysely.updateTable('entries').set({ priority: 1 }).where('seq', '=', 1).execute();
      const waiting = await countWaiting(db);
      expect(Object.keys(waiting).length).toBeGreaterThan(1);
      await migrateToLatest(db);
      const kept = await db.kysely.selectFrom('venue_waiting').selectAll().execute();
      expect(Object.fromEntries(kept.map((r) => [`${r.venue_id}/${r.priority}`, Number(r.waiting)]))).toEqual(waiting);
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
