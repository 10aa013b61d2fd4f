import { defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { type OpenQueueReader, createPaceCache } from '../estimate/index.js';
import { freshFloor } from '../estimate/floor.js';
import { upsertFloor } from '../estimate/venue-floor.repository.js';
import { getVenue } from '../venues/venues.service.js';
import { createLocalBus } from '../../plugins/bus.js';
import { createQueueCaches, findEntryById, joinWaitlist, listOpenEntries, placeEntry } from './index.js';
import { eventOf } from './entry-state.js';

// docs/decisions/038-one-forecast-per-change.md: a venue that lists its tables has its whole queue
// forecast once per change, shared by every reader; a join at the end of the queue adds its own
// forecast to the kept book instead of having the queue forecast again.

const MIN = 60_000;
const HOUR = 60 * MIN;

describe.each(stores)('one forecast per change on $name', (store) => {
  const t = useTestApp(store);
  const tables = [
    { seats: 2, count: 2 },
    { seats: 4, count: 2 },
  ];

  /**
   * A venue whose floor has learnt enough to forecast, every table busy, and a counted queue reader;
   * `watched`: the kept books hear every event of the venue (queue-caches.ts), so they may be rebased.
   */
  async function floorVenue(watched = false) {
    // A kept book is good for its hour of the week (pace-cache.ts): the test's clock starts at the
    // real time, and a test that steps it across the hour reads a fresh book. Within 10 minutes of
    // the hour's end, the clock goes to the next hour's first minute first.
    if (t.clock.now % HOUR > HOUR - 10 * MIN) t.clock.now = (Math.floor(t.clock.now / HOUR) + 1) * HOUR + MIN;
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, {
      settings: JSON.stringify({ ...defaultVenueSettings, tables, operationMode: 'basic' }),
    });
    const state = freshFloor(tables);
    state.turns = [{ band: 0, mean: 50, n: 20 }];
    state.walks = [4, 5, 6, 5, 4];
    state.tables.forEach((table, i) => (table.busySince = t.clock.now - (10 + i * 5) * MIN));
    state.at = t.clock.now;
    await upsertFloor(t.db.kysely, venueId, JSON.stringify(state), t.clock.now);
    let reads = 0;
    const reader: OpenQueueReader = async (db, id) => {
      reads += 1;
      return listOpenEntries(db, id);
    };
    // The test's clock: a kept book never expires while the test runs.
    const pace = createPaceCache(reader, () => t.clock.now, watched ? { heard: { hears: () => true, watch: () => {} } } : {});
    const deps = { ...t.app.queueDeps, pace };
    const join = async (partySize: number, priority = false) =>
      (
        await joinWaitlist(
          deps,
          venueId,
          { customer: { name: 'Ana Souza', phone: nextPhone() }, partySize, originLabel: 'Host' },
          { byStaff: true, ignoreLock: true, priority },
        )
      ).entry;
    return { venueId, pace, deps, join, reads: () => reads };
  }

  /** A floor venue with three parties waiting, the first one's page read (its quote kept), and the reads so far. */
  async function threeWaiting() {
    const floor = await floorVenue();
    for (const size of [2, 4, 3]) await floor.join(size);
    const venue = await getVenue(t.db.kysely, floor.venueId);
    const [first] = await listOpenEntries(t.db.kysely, floor.venueId);
    const firstBefore = await placeEntry(floor.deps, first!, venue);
    return { ...floor, venue, first, firstBefore, before: floor.reads() };
  }

  it('readers after a change share one forecast; the next change voids it', async () => {
    const { venueId, pace, deps, join, reads } = await floorVenue();
    for (const size of [2, 4, 3, 2]) await join(size);
    pace.forget(venueId);
    const before = reads();
    const venue = await getVenue(t.db.kysely, venueId);
    const rows = await listOpenEntries(t.db.kysely, venueId);
    const placed = await Promise.all(rows.map((row) => placeEntry(deps, row, venue)));
    expect(reads() - before).toBe(1);
    expect(placed.every((p) => p.estimatedTime !== null)).toBe(true);
    // The same answers as each reader working the forecast out itself.
    const alone = await Promise.all(rows.map((row) => placeEntry({ ...deps, pace: undefined }, row, venue)));
    expect(placed).toEqual(alone);
    pace.forget(venueId);
    await placeEntry(deps, rows[0]!, venue);
    expect(reads() - before).toBe(2);
  });

  it('a join at the end adds its forecast to the kept book: its page reads no queue and shows the quote it was given', async () => {
    const { venueId, pace, deps, join, reads, venue, first, firstBefore, before } = await threeWaiting();
    const newcomer = await join(2);
    expect(pace.hasJoined(venueId, newcomer.id)).toBe(true);
    const row = (await findEntryById(t.db.kysely, newcomer.id))!;
    const placed = await placeEntry(deps, row, venue);
    expect(reads()).toBe(before);
    expect(placed.globalPos).toBe(4);
    // No one ahead moved: the first party's forecast stands.
    expect(await placeEntry(deps, first!, venue)).toEqual(firstBefore);
    // The quote kept on the row is the one its page shows first (the join's own forecast).
    expect({ time: placed.estimatedTime, low: placed.estimatedRange?.low, high: placed.estimatedRange?.high }).toEqual({
      time: row.quoted_minutes,
      low: row.quoted_low,
      high: row.quoted_high,
    });
  });

  it('joins arriving together at the end are each placed behind the ones before them, on the kept book, reading no queue', async () => {
    const { venueId, pace, deps, join, reads, venue, first, firstBefore, before } = await threeWaiting();
    const burst = await Promise.all([2, 4, 2, 3, 2].map((size) => join(size)));
    expect(burst.every((e) => pace.hasJoined(venueId, e.id))).toBe(true);
    expect(burst.every((e) => e.quoted_minutes !== null && e.quoted_low !== null && e.quoted_high !== null)).toBe(true);
    for (const e of burst) {
      const placed = await placeEntry(deps, (await findEntryById(t.db.kysely, e.id))!, venue);
      expect({ time: placed.estimatedTime, low: placed.estimatedRange?.low, high: placed.estimatedRange?.high }).toEqual({
        time: e.quoted_minutes,
        low: e.quoted_low,
        high: e.quoted_high,
      });
    }
    expect(reads()).toBe(before);
    expect(await placeEntry(deps, first!, venue)).toEqual(firstBefore);
  });

  it('a priority join moves parties ahead of others: the kept book is not patched', async () => {
    const { venueId, pace, deps, join } = await floorVenue();
    for (const size of [2, 4]) await join(size);
    const venue = await getVenue(t.db.kysely, venueId);
    const [first] = await listOpenEntries(t.db.kysely, venueId);
    await placeEntry(deps, first!, venue);
    const vip = await join(2, true);
    expect(pace.hasJoined(venueId, vip.id)).toBe(false);
  });

  it('an expired book is rebased while nothing is heard at the venue, reading no queue; a change, or 30 s, reads it again (docs/decisions/047-rebased-books.md)', async () => {
    const { venueId, pace, deps, join, reads } = await floorVenue(true);
    for (const size of [2, 4, 3]) await join(size);
    const venue = await getVenue(t.db.kysely, venueId);
    const [first] = await listOpenEntries(t.db.kysely, venueId);
    await placeEntry(deps, first!, venue);
    const before = reads();
    // Past the book's 2 s, again and again: rebased to each moment, the queue not read.
    for (let k = 0; k < 10; k++) {
      t.clock.now += 2_500;
      const book = await pace.find(t.db.kysely, venueId, t.clock.now);
      expect(book.floor?.at).toBe(t.clock.now);
      expect((await placeEntry(deps, first!, venue)).estimatedTime).not.toBeNull();
    }
    // A join at the end goes on the rebased book's runs: its page reads no queue, the next expiry rebases still.
    const newcomer = await join(2);
    expect(pace.hasJoined(venueId, newcomer.id)).toBe(true);
    t.clock.now += 2_500;
    const placed = await placeEntry(deps, (await findEntryById(t.db.kysely, newcomer.id))!, venue);
    expect(placed.globalPos).toBe(4);
    expect(placed.estimatedTime).not.toBeNull();
    expect(reads()).toBe(before);
    // 30 s after its read, the book is read again (an event this instance missed shows by then).
    t.clock.now += 5_000;
    await placeEntry(deps, first!, venue);
    expect(reads()).toBe(before + 1);
    // A change voids it: read again at once.
    pace.forget(venueId);
    await placeEntry(deps, first!, venue);
    expect(reads()).toBe(before + 2);
  });

  it('an expired book of a venue whose events this instance may not hear is read again', async () => {
    const { venueId, deps, join, reads } = await floorVenue();
    await join(2);
    const venue = await getVenue(t.db.kysely, venueId);
    const [first] = await listOpenEntries(t.db.kysely, venueId);
    await placeEntry(deps, first!, venue);
    const before = reads();
    t.clock.now += 2_500;
    await placeEntry(deps, first!, venue);
    expect(reads()).toBe(before + 1);
  });

  it("the app's kept books: a venue with a floor is heard once its first book is read; its next books are rebased until an event of it, heard from another instance, voids them", async () => {
    const { venueId, join } = await floorVenue();
    await join(2);
    const bus = createLocalBus();
    const { pace } = createQueueCaches(bus, { now: () => t.clock.now });
    const book = () => pace.find(t.db.kysely, venueId, t.clock.now);
    // Each book read from the store is one of its own (`origin`); a rebased one keeps it.
    const first = await book();
    t.clock.now += 2_500;
    const second = await book();
    expect(second.origin).not.toBe(first.origin);
    t.clock.now += 2_500;
    const rebased = await book();
    expect(rebased.origin).toBe(second.origin);
    expect(rebased.floor?.at).toBe(t.clock.now);
    // Another instance's change, heard through the bus: read again.
    bus.publish({ type: eventOf('call'), venueId, at: new Date(t.clock.now).toISOString(), entryId: 'another' });
    const after = await book();
    expect(after.origin).not.toBe(second.origin);
  });

  it("the app's kept books: a venue without a floor is heard once its first book is read; its next book stands past its 2 s until a seating or a venue-wide event voids it (docs/decisions/052-venues-kept-while-heard.md)", async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...defaultVenueSettings, tables: [] }) });
    // A book is good for its hour (estimator.ts `slotOf`): start at the top of the next one.
    t.clock.now = (Math.floor(t.clock.now / HOUR) + 1) * HOUR;
    // A bus that may lose an event on the way (Redis): what stands on hearing alone is read again within 30 s.
    const { lossless: _lossless, ...bus } = createLocalBus();
    const { pace } = createQueueCaches(bus, { now: () => t.clock.now });
    const book = () => pace.find(t.db.kysely, venueId, t.clock.now);
    const at = () => new Date(t.clock.now).toISOString();
    // The estimator's rows, read from the store: a new array at each read, the same while kept.
    const first = await book();
    expect(first.floor).toBeUndefined();
    t.clock.now += 2_500;
    const second = await book();
    expect(second.paces).not.toBe(first.paces);
    t.clock.now += 2_500;
    const stood = await book();
    expect(stood.paces).toBe(second.paces);
    expect(stood.at).toBe(t.clock.now);
    // A call or a join changes no estimator row: the book stands.
    bus.publish({ type: eventOf('call'), venueId, at: at(), entryId: 'another' });
    t.clock.now += 2_500;
    expect((await book()).paces).toBe(second.paces);
    // A seating, heard from another instance, does: read again.
    bus.publish({ type: eventOf('seat'), venueId, at: at(), entryId: 'another' });
    const afterSeat = await book();
    expect(afterSeat.paces).not.toBe(second.paces);
    // 30 s after its read at most, read again.
    t.clock.now += 2_500;
    expect((await book()).paces).toBe(afterSeat.paces);
    t.clock.now += 30_000;
    expect((await book()).paces).not.toBe(afterSeat.paces);
  });

  it("one instance's kept books: its bus loses no event, so a floorless book stands up to ten minutes, not 30 s (docs/decisions/052-venues-kept-while-heard.md)", async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...defaultVenueSettings, tables: [] }) });
    // A book is good for its hour (estimator.ts `slotOf`): start at the top of the next one.
    t.clock.now = (Math.floor(t.clock.now / HOUR) + 1) * HOUR;
    const { pace, positions } = createQueueCaches(createLocalBus(), { now: () => t.clock.now });
    expect(positions.standsMs).toBe(10 * 60_000);
    const book = () => pace.find(t.db.kysely, venueId, t.clock.now);
    await book();
    t.clock.now += 2_500;
    const heard = await book();
    t.clock.now += 9 * 60_000;
    expect((await book()).paces).toBe(heard.paces);
    t.clock.now += 2 * 60_000;
    expect((await book()).paces).not.toBe(heard.paces);
  });

  it("a join placed on the book before a change and committed after the next read goes into the new book's runs: that book is rebased still", async () => {
    const { venueId, pace, join, reads } = await floorVenue(true);
    for (const size of [2, 4]) await join(size);
    const book = await pace.find(t.db.kysely, venueId, t.clock.now);
    const before = reads();
    // Committed now, placed on an older book (its quote then), never read from the store here.
    const party = {
      id: 'joined-elsewhere',
      status: 'active' as const,
      priority: 0,
      party_size: 2,
      created_at: t.clock.now,
      notified_at: null,
    };
    const seat = { low: t.clock.now + 10 * MIN, mid: t.clock.now + 20 * MIN, high: t.clock.now + 30 * MIN };
    expect(pace.addJoined(venueId, { party, seat, origin: {}, index: 0, last: true })).toBe(true);
    expect(pace.hasJoined(venueId, party.id)).toBe(true);
    t.clock.now += 2_500;
    const rebased = await pace.find(t.db.kysely, venueId, t.clock.now);
    expect(reads()).toBe(before);
    expect(rebased.origin).toBe(book.origin);
    expect(rebased.queue?.at(-1)?.id).toBe(party.id);
    // Its seat now from the rebased runs, at their moment.
    const rebasedSeat = rebased.floor?.seats.get(party.id);
    expect(rebasedSeat).toBeDefined();
    expect(rebasedSeat!.mid).toBeGreaterThan(t.clock.now);
  });
});
