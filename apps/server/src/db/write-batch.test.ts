import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stores } from '../../test/stores.js';
import { findVenueById, insertVenue } from '../modules/venues/venues.repository.js';
import type { Db } from './connect.js';
import { runWriteTransaction } from './write-batch.js';

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
const idOf = (n: number) => n.toString(16).padStart(24, 'a');

/** Writes that arrive together may share one commit (SQLite), but each succeeds or fails alone. */
describe.each(stores)('write transactions on $name', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = await store.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('commits every one of many simultaneous writes and answers each its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        runWriteTransaction(db, async (trx) => {
          await insertVenue(trx, venueRow(idOf(i)));
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i));
    for (let i = 0; i < 40; i++) expect(await findVenueById(db.kysely, idOf(i))).toBeDefined();
  });

  it('rolls back only the write that fails, after it wrote, and rejects only its caller', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) =>
        runWriteTransaction(db, async (trx) => {
          await insertVenue(trx, venueRow(idOf(100 + i)));
          if (i % 3 === 1) throw new Error(`refused ${i}`);
          return i;
        }),
      ),
    );
    outcomes.forEach((outcome, i) => {
      if (i % 3 === 1) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`refused ${i}`) });
      else expect(outcome).toEqual({ status: 'fulfilled', value: i });
    });
    for (let i = 0; i < 9; i++) {
      const row = await findVenueById(db.kysely, idOf(100 + i));
      if (i % 3 === 1) expect(row).toBeUndefined();
      else expect(row?.id).toBe(idOf(100 + i));
    }
  });

  it('rolls back a failed write of a batch whose savepoints outgrow 64 KiB (sub-journal in memory, docs/decisions/049-sub-journal-in-memory.md)', async () => {
    if (db.dialect === 'sqlite') {
      // 2: MEMORY, so the pager keeps sub-journals in memory with no spill to a file.
      const { rows } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(db.kysely);
      expect(rows[0]?.temp_store).toBe(2);
    }
    // 120 writes of one batch, each with a 2 KiB row: the sub-journal holds far more than 64 KiB.
    const wide = (i: number) => ({ ...venueRow(idOf(400 + i)), sections: JSON.stringify(['x'.repeat(2048)]) });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 120 }, (_, i) =>
        runWriteTransaction(db, async (trx) => {
          await insertVenue(trx, wide(i));
          if (i % 40 === 39) throw new Error(`refused ${i}`);
          return i;
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(3);
    for (const i of [0, 38, 39, 79, 80, 119]) {
      const row = await findVenueById(db.kysely, idOf(400 + i));
      if (i % 40 === 39) expect(row).toBeUndefined();
      else expect(row?.sections).toBe(wide(i).sections);
    }
  });

  it('a write that breaks a constraint fails alone and leaves the others whole', async () => {
    const outcomes = await Promise.allSettled([
      runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(200)))),
      // The same primary key as an earlier venue.
      runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(0)))),
      runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(201)))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await findVenueById(db.kysely, idOf(200))).toBeDefined();
    expect(await findVenueById(db.kysely, idOf(201))).toBeDefined();
  });

  it("a write that may wait rides the next write's commit (SQLite), and commits alone when none comes", async () => {
    const begun = vi.spyOn(db.kysely, 'startTransaction');
    const transaction = vi.spyOn(db.kysely, 'transaction');
    const commits = () => begun.mock.calls.length + transaction.mock.calls.length;
    try {
      let rode = false;
      // Far longer than the test: only the other write's commit can take it.
      const rider = runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(300))), { rideWithinMs: 600_000 }).then(() => {
        rode = true;
      });
      if (db.dialect === 'sqlite') {
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(rode).toBe(false);
        expect(await findVenueById(db.kysely, idOf(300))).toBeUndefined();
      }
      await runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(301))));
      await rider;
      expect(await findVenueById(db.kysely, idOf(300))).toBeDefined();
      expect(commits()).toBe(db.dialect === 'sqlite' ? 1 : 2);

      // Alone: it waits its time, then commits by itself.
      await runWriteTransaction(db, (trx) => insertVenue(trx, venueRow(idOf(302))), { rideWithinMs: 5 });
      expect(await findVenueById(db.kysely, idOf(302))).toBeDefined();
      expect(commits()).toBe(db.dialect === 'sqlite' ? 2 : 3);
    } finally {
      begun.mockRestore();
      transaction.mockRestore();
    }
  });
});
