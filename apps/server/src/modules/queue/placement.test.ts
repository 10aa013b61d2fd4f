import fc from 'fast-check';
import { bandOf } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { entryRow } from '../../../test/entry-rows.js';
import { addVenueLike } from '../../../test/venues.js';
import type { EntryRow } from '../../db/types.js';
import { CYCLE_TABLES, type PaceBook, VENUE_WIDE_BAND, freshPace } from '../estimate/estimator.js';
import { newEntryId } from '../../lib/ids.js';
import { getVenue } from '../venues/venues.service.js';
import { type Placement, isAhead, placeQueue, placementOf } from './placement.js';
import * as repo from './entries.repository.js';
import { countBeforeNewcomer, placeOfNewest } from './waiting-counts.repository.js';

/**
 * "Who is ahead of whom" has one definition (placement.ts) and several implementations for speed:
 * the SQL counts of a position read and of a join, the waiting counts kept by triggers, and the
 * in-memory walk of the host queue and the live streams. For random queues, every one of them
 * must give the placement of the one function.
 */

const STATUSES = ['active', 'active', 'active', 'called', 'seated', 'cancelled'] as const;
const partyArb = fc.record({
  priority: fc.integer({ min: 0, max: 1 }),
  status: fc.constantFrom(...STATUSES),
  partySize: fc.integer({ min: 1, max: 12 }),
});

/** An occupancy model that speaks: four tables have forecast best (estimator.ts). */
const speaking = (error: number) => ({
  occTurn: 60,
  occLatency: 8,
  occError: CYCLE_TABLES.map((_, i) => (CYCLE_TABLES[i] === 4 ? error : 30)),
  occScored: CYCLE_TABLES.map(() => 20),
});
const AT = 200 * 60_000;
/** A band's row with its own forecasts and its size classes' (occupants seated over the last two hours). */
const bandRow = (band: number) => ({
  ...freshPace('v', band),
  service_ms: 400_000,
  samples: 30,
  last_seated_at: AT,
  cycle: JSON.stringify({
    seats: Array.from({ length: 8 }, (_, i) => AT - (120 - i * 15 - band * 3) * 60_000),
    turn: CYCLE_TABLES.map(() => null),
    error: CYCLE_TABLES.map(() => null),
    scored: CYCLE_TABLES.map(() => 0),
    paceError: 20,
    floor: 5,
    ...speaking(15),
    cls: [speaking(5), speaking(6)],
  }),
});
/** A venue with a pace and bands with their own forecasts and size classes, so every path's estimate is compared too. */
const BOOK: PaceBook = {
  paces: [{ ...freshPace('v', VENUE_WIDE_BAND), service_ms: 150_000, samples: 30, last_seated_at: AT }, ...[0, 1, 2, 3].map(bandRow)],
  slots: [],
  slot: 0,
  at: AT,
};

/** The placement straight from the definition: count the waiting entries ahead, in the queue and in the band. */
function definitionOf(entry: EntryRow, all: EntryRow[], venue: Parameters<typeof placementOf>[1]): Placement {
  const ahead = all.filter((other) => isAhead(other, entry)).length;
  const aheadInBand = all.filter((other) => other.band === entry.band && isAhead(other, entry)).length;
  const called = all.filter((other) => other.status === 'called');
  const calledInBand = called.filter((c) => c.band === entry.band).length;
  const aheadByBand = perBand(all.filter((other) => isAhead(other, entry)));
  const counts = { ahead, aheadInBand, called: called.length, calledInBand, aheadByBand, calledByBand: perBand(called) };
  return placementOf(entry, venue, counts, BOOK);
}

/** How many of these entries are in each band (0 to 3). */
const perBand = (entries: readonly EntryRow[]) => [0, 1, 2, 3].map((band) => entries.filter((e) => e.band === band).length);
/** Counts per band as the store gives them (up to the largest band it has seen), padded to the four bands. */
const pad = (counts: readonly number[]) => [0, 1, 2, 3].map((band) => counts[band] ?? 0);

describe('the book the paths are compared with', () => {
  it('quotes from the counts per band too (the size classes), so every path must count them alike', () => {
    const entry = { status: 'active', band: 2 } as const;
    const venue = { settings: { operationMode: 'basic' } } as Parameters<typeof placementOf>[1];
    const counts = { ahead: 4, aheadInBand: 0, called: 0, calledInBand: 0 };
    const bigAhead = placementOf(entry, venue, { ...counts, aheadByBand: [0, 0, 0, 4], calledByBand: [] }, BOOK);
    const smallAhead = placementOf(entry, venue, { ...counts, aheadByBand: [4, 0, 0, 0], calledByBand: [] }, BOOK);
    expect(bigAhead.estimatedTime).toBeGreaterThan(smallAhead.estimatedTime!);
  });
});

describe.each(stores)('one placement, every path agrees, on $name', (store) => {
  const t = useTestApp(store);

  it.each(['basic', 'advanced'] as const)('for random queues in %s mode', async (mode) => {
    const db = t.db.kysely;
    const base = await getVenue(db, DEMO_BISTRO_ID);
    await fc.assert(
      fc.asyncProperty(fc.array(partyArb, { minLength: 1, maxLength: 14 }), async (parties) => {
        const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
        const venue = { ...base, id: venueId, settings: { ...base.settings, operationMode: mode } };
        const rows: EntryRow[] = [];
        for (const [i, party] of parties.entries()) {
          const row = entryRow({
            id: newEntryId(),
            share_id: newEntryId(),
            venue_id: venueId,
            seq: i + 1,
            priority: party.priority,
            party_size: party.partySize,
            band: bandOf(party.partySize),
            name: 'P',
            phone: null,
            note: null,
            created_at: 1_000 + i,
          });
          await repo.insertEntry(db, row);
          // The store's triggers see the change of state as it happens in the product: join, then act.
          if (party.status !== 'active') await repo.updateEntry(db, row.id, { status: party.status });
          rows.push({ ...row, status: party.status });
        }
        const walk = placeQueue(await repo.listOpenEntries(db, venueId), venue, BOOK);
        // The getting-close check's front (getting-close.service.ts): the same parties by seek or
        // sorted, placed from the called parties' bands and the front as the whole queue places them.
        const calledBands = await repo.listCalledBands(db, venueId);
        for (const limit of [1, 3, 5]) {
          const front = await repo.firstWaiting(db, venueId, limit);
          expect((await repo.firstWaiting(db, venueId, limit, true)).map((r) => r.id)).toEqual(front.map((r) => r.id));
          const fromFront = placeQueue([...calledBands, ...front], venue, BOOK);
          for (const r of front) expect(fromFront.get(r.id)).toEqual(walk.get(r.id));
        }
        const waiting = rows.filter((r) => r.status === 'active');
        for (const entry of rows.filter((r) => r.status === 'active' || r.status === 'called')) {
          const expected = definitionOf(entry, rows, venue);
          expect(walk.get(entry.id)).toEqual(expected);
          if (entry.status !== 'active') continue;
          const ahead = await repo.countWaitingAhead(db, entry);
          const aheadInBand = await repo.countWaitingAhead(db, entry, entry.band);
          const called = await repo.countCalled(db, venueId);
          const calledInBand = await repo.countCalled(db, venueId, entry.band);
          // Per band, in one round trip (a position read's estimate, its size classes).
          const byBand = await repo.countBeforeByBand(db, entry);
          expect(placementOf(entry, venue, { ahead, aheadInBand, called, calledInBand, ...byBand }, BOOK)).toEqual(expected);
          expect(pad(byBand.aheadByBand)).toEqual(perBand(rows.filter((r) => isAhead(r, entry))));
          expect(pad(byBand.calledByBand)).toEqual(perBand(rows.filter((r) => r.status === 'called')));
          const placed = await repo.findPlacedEntry(db, 'share_id', entry.share_id);
          expect(placed?.ahead).toBe(ahead);
          expect(placed?.called).toBe(called);
        }
        // The waiting counts kept by triggers: a join's place (everyone at its priority or above)
        // and the venue's cap (everyone waiting).
        for (const priority of [0, 1]) {
          expect(await placeOfNewest(db, venueId, priority)).toBe(waiting.filter((r) => r.priority >= priority).length);
        }
        // The open counts kept by triggers (migration 011): what stands before a newcomer of each band.
        const called = rows.filter((r) => r.status === 'called');
        for (const priority of [0, 1]) {
          for (const band of [0, 1, 2, 3]) {
            const { aheadByBand, calledByBand, ...counts } = await countBeforeNewcomer(db, venueId, band, priority);
            expect(counts).toEqual({
              ahead: waiting.filter((r) => r.priority >= priority).length,
              aheadInBand: waiting.filter((r) => r.priority >= priority && r.band === band).length,
              called: called.length,
              calledInBand: called.filter((r) => r.band === band).length,
              waiting: waiting.length,
            });
            expect(pad(aheadByBand)).toEqual(perBand(waiting.filter((r) => r.priority >= priority)));
            expect(pad(calledByBand)).toEqual(perBand(called));
          }
        }
        // A party size edited into another band moves its count with it.
        const moved = waiting[0] ?? called[0];
        if (moved) {
          const band = (moved.band + 1) % 4;
          await repo.updateEntry(db, moved.id, { band });
          const inBand = (await countBeforeNewcomer(db, venueId, band, 0))[moved.status === 'active' ? 'aheadInBand' : 'calledInBand'];
          const expected = rows.filter((r) => r.status === moved.status && (r.id === moved.id || r.band === band)).length;
          expect(inBand).toBe(expected);
          await repo.updateEntry(db, moved.id, { band: moved.band });
        }
        // The venue's cap counts every party waiting, of any priority and band.
        expect((await countBeforeNewcomer(db, venueId, 0, 1)).waiting).toBe(waiting.length);
      }),
      { numRuns: 12 },
    );
  });
});
