import { type VenueSettings, defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import type { EntryRow } from '../../db/types.js';
import { patchSettings } from '../host/host-settings.service.js';
import { copyTail, floorReady, forecastBehind, forecastFloor, parseFloor, quoteOfSeat } from '../estimate/floor.js';
import { callEntry, endEntry, findEntryById, joinWaitlist, placeEntry, seatEntry } from './index.js';
import { getVenue } from '../venues/venues.service.js';

// docs/decisions/022-wait-estimates.md, "The floor": a venue that lists its tables has them
// followed from its calls, seats and ends (one `venue_floor` row), and once the floor has learned
// enough its joins are quoted from the floor's forecast; the estimator's own quote stays in the
// basis. Through the queue's services with the app's clock, on both stores.

const MIN = 60_000;

describe.each(stores)('the floor on $name', (store) => {
  const t = useTestApp(store);

  const deps = () => t.app.queueDeps;
  const venue = (settings: Partial<VenueSettings>) =>
    addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...defaultVenueSettings, ...settings }) });
  const join = async (venueId: string, partySize = 4): Promise<EntryRow> =>
    (
      await joinWaitlist(
        deps(),
        venueId,
        { customer: { name: 'Ana Souza', phone: nextPhone() }, partySize, originLabel: 'Host' },
        { byStaff: true, ignoreLock: true },
      )
    ).entry;
  const row = async (id: string) => (await findEntryById(t.db.kysely, id))!;
  const floorRow = (venueId: string) =>
    t.db.kysely.selectFrom('venue_floor').select(['state', 'updated_at']).where('venue_id', '=', venueId).executeTakeFirst();
  const basisOf = (entry: EntryRow) => JSON.parse(entry.quote_basis ?? '{}') as Record<string, unknown>;

  /**
   * An evening at a venue whose tables are all taken: two parties seated at the door, then each
   * newcomer waits half an hour, is called as a table frees, and walks in five minutes later; one
   * in five called parties never comes.
   */
  async function busyEvening(venueId: string, parties: number): Promise<void> {
    for (let i = 0; i < 2; i++) await seatEntry(deps(), await join(venueId));
    for (let i = 0; i < parties; i++) {
      const entry = await join(venueId);
      t.clock.now += 30 * MIN;
      const called = await callEntry(deps(), await row(entry.id));
      t.clock.now += 5 * MIN;
      if (i % 5 === 4) await endEntry(deps(), called, 'cancel', 'NoShow');
      else await seatEntry(deps(), called);
    }
  }

  it('a venue that lists its tables: the floor learns, then quotes the joins', async () => {
    const tables = [{ seats: 4, count: 2 }];
    const venueId = await venue({ tables, operationMode: 'basic' });
    await busyEvening(venueId, 30);

    const stored = await floorRow(venueId);
    expect(stored).toBeDefined();
    expect(stored!.updated_at).toBe(t.clock.now);
    const state = parseFloor(stored!.state)!;
    expect(state.layout).toBe('4x2');
    expect(state.tables.map((table) => table.seats)).toEqual([4, 4]);
    expect(state.mode).toBe('basic');
    expect(floorReady(state)).toBe(true);
    // The floor's last event: the last party seated or gone; the tables are busy, none held.
    expect(state.tables.every((table) => table.heldFor === null)).toBe(true);

    // Two parties waiting, then ours: quoted by the floor, with the same forecast the join makes:
    // the newcomer placed behind the forecast of the queue it joins, on that forecast's tail
    // (docs/decisions/043-busy-venue-joins.md), the venue's book read at its join.
    await join(venueId);
    await join(venueId);
    t.clock.now += 1_000;
    const queue = await t.db.kysely
      .selectFrom('entries')
      .select(['party_size', 'created_at'])
      .where('venue_id', '=', venueId)
      .where('status', '=', 'active')
      .orderBy('seq')
      .execute();
    const before = parseFloor((await floorRow(venueId))!.state)!;
    const now = t.clock.now;
    deps().pace?.forget(venueId);
    const newcomer = await join(venueId);
    // The queue the join's book forecast: each waiting party's size and join time; the newcomer behind it.
    const ahead = queue.map((e) => ({ size: e.party_size, joinedAt: e.created_at }));
    const { tail } = forecastFloor(before, { waiting: ahead, called: [] }, now, before.mode, { tail: true });
    const [seat] = forecastBehind(before, copyTail(tail!), [{ size: 4 }], now, before.mode);
    expect(seat).toBeTruthy();
    const waiting = [...ahead, { size: 4, joinedAt: now }];
    const expected = quoteOfSeat(seat!, now);
    expect({ time: newcomer.quoted_minutes, low: newcomer.quoted_low, high: newcomer.quoted_high }).toEqual(expected);
    const basis = basisOf(newcomer);
    expect(typeof basis.own).toBe('number');
    // A join writes no floor event.
    expect((await floorRow(venueId))!.state).toBe(JSON.stringify(before));

    // The diner's page: the floor's forecast of this party, a range around the time.
    const page = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${newcomer.id}/position` })).json().waitlist as {
      estimatedTime: number | null;
      estimatedRange: { low: number; high: number } | null;
    };
    expect(page.estimatedTime).not.toBeNull();
    expect(page.estimatedRange).not.toBeNull();
    expect(page.estimatedRange!.low).toBeLessThanOrEqual(page.estimatedTime!);
    expect(page.estimatedTime!).toBeLessThanOrEqual(page.estimatedRange!.high);
    expect(page.estimatedRange!.high).toBeGreaterThan(page.estimatedRange!.low);
    // The placement of a position read, from the store (no kept pace): the floor's forecast of the
    // whole queue, this party third.
    const placed = await placeEntry({ ...deps(), pace: undefined }, await row(newcomer.id), await getVenue(t.db.kysely, venueId));
    expect(placed.globalPos).toBe(3);
    const whole = forecastFloor(before, { waiting, called: [] }, t.clock.now, before.mode).seats[2]!;
    const read = quoteOfSeat(whole, t.clock.now);
    expect({ time: placed.estimatedTime, range: placed.estimatedRange }).toEqual({
      time: read.time,
      range: { low: read.low, high: read.high },
    });
    expect(placed.estimatedRange!.low).toBeLessThanOrEqual(placed.estimatedTime!);
    expect(placed.estimatedTime!).toBeLessThanOrEqual(placed.estimatedRange!.high);

    // Through the kept pace: a join at the end is added to the kept book with its own forecast
    // (docs/decisions/038-one-forecast-per-change.md; its page then shows the quote it was given:
    // shared-forecast.test.ts, with a clock of its own); the store's forecast of the whole queue
    // places it the same.
    const venueNow = await getVenue(t.db.kysely, venueId);
    await placeEntry(deps(), await row(newcomer.id), venueNow);
    t.clock.now += 1_000;
    const later = await join(venueId);
    const cached = await placeEntry(deps(), await row(later.id), venueNow);
    const fromStore = await placeEntry({ ...deps(), pace: undefined }, await row(later.id), venueNow);
    expect(cached.estimatedTime).not.toBeNull();
    expect(fromStore.estimatedTime).not.toBeNull();
    expect(cached.globalPos).toBe(fromStore.globalPos);

    // The owner lists other tables: the floor takes them at once and keeps what it learned.
    const learned = parseFloor((await floorRow(venueId))!.state)!;
    await patchSettings(deps(), t.config, venueId, {
      settings: {
        tables: [
          { seats: 6, count: 1 },
          { seats: 4, count: 2 },
        ],
      },
    });
    const relisted = parseFloor((await floorRow(venueId))!.state)!;
    expect(relisted.layout).toBe('4x2,6x1');
    expect(relisted.tables.map((table) => table.seats)).toEqual([4, 4, 6]);
    expect(relisted.turns).toEqual(learned.turns);
    expect(relisted.walks).toEqual(learned.walks);

    // The owner clears the tables: the floor goes, and the next join is the estimator's alone.
    await patchSettings(deps(), t.config, venueId, { settings: { tables: [] } });
    expect(await floorRow(venueId)).toBeUndefined();
    t.clock.now += 1_000;
    const plain = await join(venueId);
    expect(basisOf(plain)).not.toHaveProperty('own');
    // Nor does any event bring it back.
    await seatEntry(deps(), await row(plain.id));
    expect(await floorRow(venueId)).toBeUndefined();
  });

  it('a venue that lists no tables never gets a floor', async () => {
    const venueId = await venue({ tables: [] });
    await busyEvening(venueId, 12);
    const left = await join(venueId);
    t.clock.now += 20 * MIN;
    await endEntry(deps(), await row(left.id), 'leave', 'Customer');
    expect(await floorRow(venueId)).toBeUndefined();
    const next = await join(venueId);
    expect(basisOf(next)).not.toHaveProperty('own');
  });

  it('a venue with tables has its floor row from its first event, before it is ready', async () => {
    const venueId = await venue({ tables: [{ seats: 2, count: 3 }] });
    const entry = await join(venueId, 2);
    expect(await floorRow(venueId)).toBeUndefined();
    await callEntry(deps(), entry);
    const state = parseFloor((await floorRow(venueId))!.state)!;
    expect(state.tables.map((table) => table.heldFor)).toEqual([entry.id, null, null]);
    expect(floorReady(state)).toBe(false);
    // Not ready: the join's quote is the estimator's own, no `own` beside it.
    expect(basisOf(await join(venueId, 2))).not.toHaveProperty('own');
  });
});
