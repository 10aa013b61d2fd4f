import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, joinParty } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { stores } from '../../test/stores.js';
import type { EntryRow } from '../db/types.js';
import { findEntryById } from '../modules/queue/index.js';
import { callEntry, endEntry, seatEntry } from '../modules/queue/index.js';
import { runRetention, runRetentionJob } from './retention.js';

const HOUR = 3_600_000;

/** Decisions §3: personal data of finished entries goes after RETENTION_HOURS; counts and times stay. */
describe.each(stores)('retention job on $name', (store) => {
  const t = useTestApp(store);
  const start = Date.UTC(2026, 10, 20, 12);
  const ids: Record<string, string> = {};
  let before: Record<string, EntryRow> = {};

  const joinAt = async (at: number, venue = DEMO_BISTRO_ID, overrides: Record<string, unknown> = {}) => {
    t.clock.now = at;
    const party =
      venue === DEMO_CLUB_ID
        ? { customer: { email: 'lia@example.com', name: 'Lia Prado' }, note: 'Localização: Varanda', ...overrides }
        : { customer: { email: 'ana@example.com' }, note: 'Cadeirinha de bebê', ...overrides };
    return (await joinParty(t, party, { venueId: venue })).id;
  };
  /** The row without its SMS delivery state, which goes on from queued to sent by itself meanwhile. */
  const settled = ({ last_message_status: _delivery, ...rest }: EntryRow) => rest;
  const row = async (id: string) => {
    const found = await findEntryById(t.db.kysely, id);
    if (!found) throw new Error(`entry ${id} is gone`);
    return found;
  };

  beforeAll(async () => {
    const deps = t.app.queueDeps;
    // Ended 26 h before "now" (start + 30 h): erased.
    ids.seatedLongAgo = await joinAt(start);
    ids.cancelledLongAgo = await joinAt(start + 1_000, DEMO_CLUB_ID);
    ids.removedLongAgo = await joinAt(start + 2_000);
    t.clock.now = start + 4 * HOUR;
    await seatEntry(deps, await row(ids.seatedLongAgo));
    await endEntry(deps, await row(ids.cancelledLongAgo), 'leave', 'Customer');
    await endEntry(deps, await row(ids.removedLongAgo), 'cancel', 'NoShow');
    // Ended 2 h before now: kept.
    ids.seatedRecently = await joinAt(start + 20 * HOUR);
    t.clock.now = start + 28 * HOUR;
    await seatEntry(deps, await row(ids.seatedRecently));
    // Joined long ago but still waiting or called: kept whatever their age.
    ids.waitingLongAgo = await joinAt(start + 3_000);
    ids.calledLongAgo = await joinAt(start + 4_000);
    t.clock.now = start + 5 * HOUR;
    await callEntry(deps, await row(ids.calledLongAgo));
    before = Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([k, id]) => [k, await row(id)] as const)));
  });

  const now = start + 30 * HOUR;
  const erasedKeys = ['seatedLongAgo', 'cancelledLongAgo', 'removedLongAgo'];
  const keptKeys = ['seatedRecently', 'waitingLongAgo', 'calledLongAgo'];

  it('the entries hold personal data before the job runs', () => {
    for (const entry of Object.values(before)) {
      expect(entry.name).toEqual(expect.any(String));
      expect(entry.phone).toMatch(/^\+55/);
      expect(entry.email).toEqual(expect.any(String));
      expect(entry.note).toEqual(expect.any(String));
    }
    expect(before.cancelledLongAgo?.section).toBe('Varanda');
  });

  it('erases name, phone, email, note and section of entries ended more than RETENTION_HOURS ago', async () => {
    const count = await runRetention(t.db, 24, now);
    // The demo seed's own waiting parties never ended, so exactly our three.
    expect(count).toBe(3);
    for (const key of erasedKeys) {
      const after = await row(ids[key]!);
      const was = before[key]!;
      expect(after).toMatchObject({ name: null, phone: null, email: null, note: null, section: null, client_key: null, erased_at: now });
      // Anonymous counts and times stay.
      const { name: _n, phone: _p, email: _e, note: _no, section: _s, client_key: _k, erased_at: _x, ...kept } = was;
      expect(after).toMatchObject(kept);
    }
  });

  it('keeps the personal data of recent and still-open entries', async () => {
    for (const key of keptKeys) expect(settled(await row(ids[key]!))).toEqual(settled(before[key]!));
  });

  it('a second run erases nothing more and changes nothing', async () => {
    const snapshot = await Promise.all(Object.values(ids).map(row));
    expect(await runRetention(t.db, 24, now + 60_000)).toBe(0);
    expect((await Promise.all(Object.values(ids).map(row))).map(settled)).toEqual(snapshot.map(settled));
  });

  it('honours a shorter retention period', async () => {
    expect(await runRetention(t.db, 1, now)).toBe(1);
    expect(await row(ids.seatedRecently!)).toMatchObject({ name: null, phone: null, status: 'seated' });
    expect(settled(await row(ids.waitingLongAgo!))).toEqual(settled(before.waitingLongAgo!));
  });

  it('an erased entry still answers its position and status, without the name', async () => {
    const position = await t.app.inject({ method: 'GET', url: `/api/waitlists/${ids.seatedLongAgo}/position` });
    expect(position.statusCode).toBe(200);
    expect(position.json().waitlist).toMatchObject({ status: 'seated', customer: { name: '' }, partySize: 2 });
    const status = await t.app.inject({ method: 'GET', url: `/api/waitlists/${ids.cancelledLongAgo}/${DEMO_CLUB_ID}/status` });
    expect(status.json()).toMatchObject({ status: 'cancelled', cancelReason: 'Customer' });
  });

  /** What the venue_waiting triggers (migration 005) hold for the bistro, against a plain count. */
  const waitingCounts = async () => {
    const db = t.db.kysely;
    const kept = await db.selectFrom('venue_waiting').select(['priority', 'waiting']).where('venue_id', '=', DEMO_BISTRO_ID).execute();
    const counted = await db
      .selectFrom('entries')
      .select(['priority', db.fn.countAll<number>().as('waiting')])
      .where('venue_id', '=', DEMO_BISTRO_ID)
      .where('status', '=', 'active')
      .groupBy('priority')
      .execute();
    const total = (rows: { waiting: unknown }[]) => rows.reduce((sum, r) => sum + Number(r.waiting), 0);
    return { kept: total(kept), counted: total(counted) };
  };

  it('ends parties left open for more than a day (reason Expired) and erases them after the retention period', async () => {
    const deps = t.app.queueDeps;
    const options = { retentionHours: 24, openMaxHours: 24 };
    ids.waitingRecently = await joinAt(now - 2 * HOUR);
    t.clock.now = now;
    // A kept position answer of a party about to expire: the job's announcement must replace it.
    const kept = await t.app.inject({ method: 'GET', url: `/api/waitlists/${ids.waitingLongAgo}/position` });
    expect(kept.json().waitlist.status).toBe('active');
    const counts = await waitingCounts();
    expect(counts.kept).toBe(counts.counted);

    expect(await runRetentionJob(deps, options, now)).toMatchObject({ expired: 2, erased: 0 });
    for (const key of ['waitingLongAgo', 'calledLongAgo']) {
      expect(await row(ids[key]!)).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'Expired',
        ended_at: now,
        cancelled_at: now,
        name: before[key]!.name,
      });
    }
    expect(await row(ids.waitingRecently)).toMatchObject({ status: 'active', cancel_reason: null });
    // The waiting counter lost the waiting party (the called one was not counted) and still agrees.
    const after = await waitingCounts();
    expect(after).toEqual({ kept: counts.kept - 1, counted: counts.counted - 1 });
    const position = await t.app.inject({ method: 'GET', url: `/api/waitlists/${ids.waitingLongAgo}/position` });
    expect(position.json().waitlist).toMatchObject({ status: 'cancelled', cancelReason: 'Expired' });

    // A day later, the expired parties' personal data goes, like any finished entry's.
    expect(await runRetentionJob(deps, options, now + 21 * HOUR)).toMatchObject({ expired: 0, erased: 0 });
    expect(await runRetentionJob(deps, options, now + 25 * HOUR)).toMatchObject({ expired: 1, erased: 2 });
    for (const key of ['waitingLongAgo', 'calledLongAgo']) {
      expect(await row(ids[key]!)).toMatchObject({ name: null, phone: null, email: null, note: null, cancel_reason: 'Expired' });
    }
    expect(await row(ids.waitingRecently)).toMatchObject({ status: 'cancelled', cancel_reason: 'Expired', name: expect.any(String) });
    expect(await waitingCounts()).toEqual({ kept: counts.kept - 2, counted: counts.counted - 2 });
  });
});
