import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/connect.js';
import { runWriteTransaction } from '../../db/write-batch.js';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { seededStore, startTestApp, useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { forgetVenue, hearVenuesThrough, keepVenue, markVenue } from './venue-cache.js';
import { updateVenue } from './venues.repository.js';
import { getVenue } from './venues.service.js';

/** The venue is kept for a moment between reads; a write through the repository shows at once. */
describe.each(stores)('venue cache on $name', (store) => {
  const t = useTestApp(store);

  it('answers a repeated read from the kept copy, frozen against changes', async () => {
    const first = await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    const second = await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    expect(second).toBe(first);
    expect(Object.isFrozen(first.settings)).toBe(true);
    expect(() => {
      (first.settings as { emailRequired: boolean }).emailRequired = true;
    }).toThrow(TypeError);
  });

  it('shows a change made through the repository on the next read, in every route', async () => {
    await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 3, waitlist_locked: 1 });
    expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(3);
    const statuses = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses` });
    expect(statuses.json()).toEqual({ waitlist: { locked: true, active: true } });
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 8, waitlist_locked: 0 });
    expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(8);
  });

  it('reads the row itself inside a transaction', async () => {
    await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    // A change behind the repository's back (another instance, for example).
    await sql`update venues set max_party_size = 5 where id = ${DEMO_BISTRO_ID}`.execute(t.db.kysely);
    const inside = await t.db.kysely.transaction().execute((trx) => getVenue(trx, DEMO_BISTRO_ID));
    expect(inside.maxPartySize).toBe(5);
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 8 });
  });

  it("serves a change's write transaction from the kept venue; any other transaction reads the row", async () => {
    const kept = await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    expect(await runWriteTransaction(t.db, (trx) => getVenue(trx, DEMO_BISTRO_ID))).toBe(kept);
    const inside = await t.db.kysely.transaction().execute((trx) => getVenue(trx, DEMO_BISTRO_ID));
    expect(inside).not.toBe(kept);
    expect(inside).toEqual(kept);
  });

  it('keeps venues of different stores apart', async () => {
    const other = await startTestApp(store);
    try {
      await updateVenue(other.db.kysely, DEMO_BISTRO_ID, { max_party_size: 2 });
      await getVenue(other.db.kysely, DEMO_BISTRO_ID);
      expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(8);
      expect((await getVenue(other.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(2);
    } finally {
      await other.close();
    }
  });
});

// docs/decisions/052-venues-kept-while-heard.md: a venue whose events this instance hears is kept
// until one of them voids it (30 s at most); any other venue a moment (2 s); a read racing a
// change never keeps its row.

describe.each(stores)('kept venues on $name', (store) => {
  let db: Db;
  let clock = 0;
  const heard = new Set<string>();
  const watched: string[] = [];
  beforeAll(async () => {
    db = await seededStore(store);
  });
  afterAll(async () => db.close());

  /** Renames the venue in the store behind the cache's back (another instance's write, its event not heard). */
  const rename = (name: string) => db.kysely.updateTable('venues').set({ name_pt: name }).where('id', '=', DEMO_BISTRO_ID).execute();
  const nameNow = async () => (await getVenue(db.kysely, DEMO_BISTRO_ID)).name.pt;

  it('keeps a heard venue until its event, and for a moment one it does not hear', async () => {
    hearVenuesThrough(db.kysely, {
      hears: (id) => heard.has(id),
      watch: (id) => void (watched.push(id), heard.add(id)),
      standsMs: 30_000, // behind Redis (position-cache.ts)
      now: () => clock,
    });
    forgetVenue(DEMO_BISTRO_ID);
    await rename('Um');
    // Not heard at the first read: it starts hearing, and keeps the row a moment only.
    expect(await nameNow()).toBe('Um');
    expect(watched).toEqual([DEMO_BISTRO_ID]);
    await rename('Dois');
    clock += 1_000;
    expect(await nameNow()).toBe('Um');
    clock += 1_500;
    expect(await nameNow()).toBe('Dois');
    // Heard from before this read on: kept past the moment, until the venue's event voids it.
    await rename('Três');
    clock += 20_000;
    expect(await nameNow()).toBe('Dois');
    forgetVenue(DEMO_BISTRO_ID); // queue-caches.ts on a venue-wide event
    expect(await nameNow()).toBe('Três');
    // An event lost on the way costs at most 30 s.
    await rename('Quatro');
    clock += 29_000;
    expect(await nameNow()).toBe('Três');
    clock += 2_000;
    expect(await nameNow()).toBe('Quatro');
    // No longer heard (the watch ended): a moment only again.
    heard.clear();
    forgetVenue(DEMO_BISTRO_ID);
    expect(await nameNow()).toBe('Quatro');
    await rename('Cinco');
    clock += 2_500;
    expect(await nameNow()).toBe('Cinco');
  });

  it('never keeps a row read before the venue changed', async () => {
    heard.add(DEMO_BISTRO_ID);
    forgetVenue(DEMO_BISTRO_ID);
    const mark = markVenue(db.kysely, DEMO_BISTRO_ID);
    const stale = { ...(await getVenue(db.kysely, DEMO_BISTRO_ID)), name: { pt: 'Antigo' } };
    forgetVenue(DEMO_BISTRO_ID); // the change commits while the read was on its way
    await rename('Novo');
    keepVenue(db.kysely, stale, mark);
    expect(await nameNow()).toBe('Novo');
  });
});
