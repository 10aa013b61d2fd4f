import { describe, expect, it } from 'vitest';
import type { EntryRow, PaceRow, PaceSlotRow } from '../../db/types.js';
import {
  CLASS_RANGES,
  CYCLE_TABLES,
  EMPTY_BOOK,
  type PaceBook,
  VENUE_WIDE_BAND,
  cycleOf,
  estimate,
  nextPace,
  nextSlot,
  rangeOf,
  slotOf,
} from './estimator.js';

// docs/decisions/022-wait-estimates.md: the estimator, one seating at a time.

const MIN = 60_000;
const VENUE = 'v';
const NOBODY = { ahead: 0, called: 0, aheadInBand: 0, calledInBand: 0 };
const T0 = Date.UTC(2026, 0, 5, 19); // a Monday, 19:00 UTC

type Party = Pick<EntryRow, 'created_at' | 'quoted_minutes' | 'quote_basis'>;
const party = (joinedAt: number, quote?: { minutes: number; basis: unknown }): Party => ({
  created_at: joinedAt,
  quoted_minutes: quote?.minutes ?? null,
  quote_basis: quote ? JSON.stringify(quote.basis) : null,
});

/** A venue's rows after these seatings (venue-wide and one band), as the seat writes them. */
class Venue {
  paces = new Map<number, PaceRow>();
  slots = new Map<string, PaceSlotRow>();

  seat(p: Party, at: number, band = 0): void {
    for (const b of [VENUE_WIDE_BAND, band]) {
      const before = this.paces.get(b);
      const key = `${b}:${slotOf(at)}`;
      const slot = nextSlot(this.slots.get(key), VENUE, b, before, p, at);
      if (slot) this.slots.set(key, slot);
      this.paces.set(b, nextPace(before, VENUE, b, p, at));
    }
  }

  book(at: number): PaceBook {
    const slot = slotOf(at);
    return { paces: [...this.paces.values()], slots: [...this.slots.values()].filter((s) => s.slot === slot), slot, at };
  }
}

/**
 * Two tables of an hour's turn and a call-to-seat of 6 minutes: when each party joining at `joins`
 * is seated, and the joins and seats as one stream of events in time order (joins first at a tie).
 */
function twoTablesOfAnHour(joins: readonly number[]) {
  const freeAt = [T0, T0];
  const seats = joins.map((joined) => {
    const table = freeAt[0]! <= freeAt[1]! ? 0 : 1;
    const seatedAt = Math.max(joined, freeAt[table]!) + 6 * MIN;
    freeAt[table] = seatedAt + 60 * MIN;
    return seatedAt;
  });
  const events = [...joins.map((at, i) => ({ at, i, join: true })), ...seats.map((at, i) => ({ at, i, join: false }))];
  events.sort((a, b) => a.at - b.at || Number(a.join) - Number(b.join));
  return { seats, events };
}

describe('the estimator', () => {
  it('quotes nothing for a venue that never seated anyone (cold start)', () => {
    expect(estimate(EMPTY_BOOK, 0, NOBODY)).toBeNull();
    expect(estimate(EMPTY_BOOK, VENUE_WIDE_BAND, { ...NOBODY, ahead: 12 })).toBeNull();
  });

  it('learns how fast staff seat, not how long the venue stood idle', () => {
    const v = new Venue();
    // A slow afternoon: a party every 40 minutes, each seated 5 minutes after it joined.
    for (let i = 0; i < 6; i++) v.seat(party(T0 + i * 40 * MIN), T0 + i * 40 * MIN + 5 * MIN);
    const at = T0 + 5 * 40 * MIN + 6 * MIN;
    expect(estimate(v.book(at), 0, NOBODY)?.time).toBe(5);
    // The old average of gaps between seatings would have said 40.
    expect(estimate(v.book(at), 0, { ...NOBODY, ahead: 2, aheadInBand: 2 })?.time).toBe(15);
  });

  it('counts no service interval for the parties already called: their tables have freed', () => {
    const v = new Venue();
    for (let i = 1; i <= 4; i++) v.seat(party(T0), T0 + i * 3 * MIN);
    const at = T0 + 12 * MIN;
    const waiting = estimate(v.book(at), 0, { ...NOBODY, ahead: 2, aheadInBand: 2 })!;
    const withCalled = estimate(v.book(at), 0, { ahead: 2, aheadInBand: 2, called: 2, calledInBand: 2 })!;
    expect(waiting.time).toBe(9);
    // A called party holds a table already: the tables still to free are the same two and its own.
    expect(withCalled.time).toBe(9);
    const basis = estimate(v.book(at), 0, { ahead: 2, aheadInBand: 2, called: 2, calledInBand: 2 }, true)!.basis!;
    expect(basis.venue?.pace).toBe(9);
    expect(basis.band?.pace).toBe(9);
    // The cycle and the occupancy still count them: their seatings come before the party's.
    expect(basis.band?.before).toBe(4);
  });

  it("falls back on the same hour of last week's history once the recent pace is hours old", () => {
    const v = new Venue();
    // Last Monday at 19:00 the venue seated one party every 6 minutes...
    for (let i = 1; i <= 8; i++) v.seat(party(T0 - 7 * 24 * 60 * MIN), T0 - 7 * 24 * 60 * MIN + i * 6 * MIN);
    // ...and this Monday at 12:00 one every 2 minutes (lunch).
    const lunch = T0 - 7 * 60 * MIN;
    for (let i = 1; i <= 8; i++) v.seat(party(lunch), lunch + i * 2 * MIN);
    // The recent pace follows lunch (an average that moves from 6 toward 2 with every seating).
    expect(estimate(v.book(lunch + 17 * MIN), 0, NOBODY)?.time).toBe(3);
    // At 19:00 lunch's pace is seven hours old: the 19:00 history speaks.
    expect(estimate(v.book(T0 + MIN), 0, NOBODY)?.time).toBe(6);
  });

  it("uses a band's own pace once it has one, in either mode", () => {
    const v = new Venue();
    // Big tables (band 3) turn slowly: 20 minutes a seating; small ones 3 minutes.
    const seatings = Array.from({ length: 10 }, (_, i) => [
      [T0 + (i + 1) * 20 * MIN, 3],
      [T0 + (i + 1) * 3 * MIN, 0],
    ]).flat() as [number, number][];
    for (const [at, band] of seatings.sort((a, b) => a[0] - b[0])) v.seat(party(T0), at, band);
    const book = v.book(T0 + 200 * MIN);
    const before = { ahead: 4, called: 0, aheadInBand: 1, calledInBand: 0 };
    // Parties of 2 and of 8 with the same four parties ahead, one of them in their own band.
    const big = estimate(book, 3, before)!;
    const small = estimate(book, 0, before)!;
    expect(big.time).toBeGreaterThanOrEqual(30);
    expect(small.time).toBeLessThanOrEqual(10);
  });

  it('learns from quotes that came true or not: the fit moves the quote toward the waits', () => {
    const v = new Venue();
    let at = T0;
    // The pace says 3 minutes a seating, but every party waits 10 minutes more than that says.
    for (let i = 0; i < 60; i++) {
      const quote = estimate(v.book(at), 0, NOBODY, true);
      const joined = at;
      at += 3 * MIN;
      const basis = quote?.basis ?? { venue: { pace: 3, cycle: [], before: 0 }, band: null };
      v.seat(party(joined, { minutes: quote?.time ?? 3, basis }), at + (basis.venue!.pace! + 10) * MIN - 3 * MIN);
    }
    const pace = v.paces.get(VENUE_WIDE_BAND)!;
    expect(pace.fit_w).toBeGreaterThan(30);
    const quote = estimate(v.book(at), VENUE_WIDE_BAND, NOBODY)!;
    expect(Math.abs(quote.time - 13)).toBeLessThanOrEqual(2);
  });

  it('keeps the recent seat times for the turn cycle, and a join keeps every forecast', () => {
    const v = new Venue();
    for (let i = 1; i <= 40; i++) v.seat(party(T0), T0 + i * MIN);
    const cycle = cycleOf(v.paces.get(0))!;
    expect(cycle.seats).toHaveLength(32);
    expect(cycle.seats.at(-1)).toBe(T0 + 40 * MIN);
    const quote = estimate(v.book(T0 + 41 * MIN), 0, NOBODY, true)!;
    expect(quote.basis?.band?.cycle).toHaveLength(cycle.turn.length);
    expect(estimate(v.book(T0 + 41 * MIN), 0, NOBODY)?.basis).toBeUndefined();
  });

  it('the occupancy forecast learns the minutes from a free table to a seated party, and speaks', () => {
    const v = new Venue();
    // A quiet venue: a party every 90 minutes, a table always free, each seated 8 minutes after it joined.
    for (let i = 0; i < 60; i++) {
      const joined = T0 + i * 90 * MIN;
      const quote = estimate(v.book(joined), 0, NOBODY, true);
      expect(quote?.basis?.band?.occ ?? []).toHaveLength(quote?.basis?.band ? CYCLE_TABLES.length : 0);
      const basis = quote?.basis ?? { venue: null, band: null };
      v.seat(party(joined, { minutes: quote?.time ?? 8, basis }), joined + 8 * MIN);
    }
    const cycle = cycleOf(v.paces.get(0))!;
    expect(Math.abs(cycle.occLatency! - 8)).toBeLessThan(1);
    expect(cycle.occScored!.some((n) => n >= 10)).toBe(true);
    expect(estimate(v.book(T0 + 60 * 90 * MIN), 0, NOBODY)?.time).toBe(8);
  });

  it('the occupancy forecast learns the turn of busy tables', () => {
    // Two tables, turns of exactly 60 minutes, 6 minutes from a free table to a seated party, a
    // party every 25 minutes: the queue grows, and each party's table is one an occupant leaves.
    const joins = Array.from({ length: 60 }, (_, i) => T0 + i * 25 * MIN);
    const { seats, events } = twoTablesOfAnHour(joins);
    const v = new Venue();
    const quotes: { minutes: number; basis: unknown }[] = [];
    for (const e of events) {
      if (e.join) {
        const ahead = joins.filter((j, k) => k < e.i && seats[k]! > e.at).length;
        const quote = estimate(v.book(e.at), 0, { ahead, called: 0, aheadInBand: ahead, calledInBand: 0 }, true);
        quotes[e.i] = { minutes: quote?.time ?? 6, basis: quote?.basis ?? { venue: null, band: null } };
      } else v.seat(party(joins[e.i]!, quotes[e.i]), e.at);
    }
    const cycle = cycleOf(v.paces.get(0))!;
    // The turn it learned is about the tables' (it started from a prior of 60: one of 90 must come down).
    expect(cycle.occTurn).toBeGreaterThan(45);
    expect(cycle.occTurn).toBeLessThan(75);
    // Of every table count it tried, two (the venue's) has forecast best, within minutes.
    const errors = cycle.occError!.map((e) => e ?? Infinity);
    const best = errors.indexOf(Math.min(...errors));
    expect(CYCLE_TABLES[best]).toBe(2);
    expect(errors[best]).toBeLessThan(10);
  });

  it("a band's size classes: the tables its band and the larger ones hold, and the band below's (docs/decisions/022-wait-estimates.md)", () => {
    const v = new Venue();
    for (let i = 0; i < 12; i++) v.seat(party(T0 + i * 5 * MIN), T0 + i * 5 * MIN + 3 * MIN, i % 2 === 0 ? 2 : 3);
    const at = T0 + 70 * MIN;
    const counts = { ...NOBODY, aheadByBand: [4, 3, 1, 2], calledByBand: [0, 1, 0, 1] };
    const forBand = (band: number) => estimate(v.book(at), band, counts, true)?.basis?.band?.cls;
    expect(CLASS_RANGES).toHaveLength(2);
    // Band 2: its band and band 3 ([2, 3]); the band below too ([1, 3]).
    expect(forBand(2)?.map((c) => c?.length ?? null)).toEqual([CYCLE_TABLES.length, CYCLE_TABLES.length]);
    // The largest band's first class is its own tables (its own forecast); the smallest has no band below.
    expect(forBand(3)?.map((c) => c === null)).toEqual([true, false]);
    v.seat(party(at), at + MIN, 0);
    expect(estimate(v.book(at + 2 * MIN), 0, counts, true)?.basis?.band?.cls?.map((c) => c === null)).toEqual([false, true]);
    // Without the counts per band (a caller that does not know them) there are no classes.
    expect(estimate(v.book(at), 2, NOBODY, true)?.basis?.band?.cls).toEqual([null, null]);
  });

  it('a size class learns the tables its bands share, and only the parties ahead that compete for them count', () => {
    // Two big tables, shared by parties of band 3 and, one in four, of band 2; turns of exactly 60
    // minutes, 6 minutes from a free table to a seated party; evenings of twelve parties, one every
    // 20 minutes: the queue builds, then drains.
    const joins = Array.from({ length: 120 }, (_, i) => T0 + Math.floor(i / 12) * 24 * 60 * MIN + (i % 12) * 20 * MIN);
    const bands = joins.map((_, i) => (i % 4 === 1 ? 2 : 3));
    const { seats, events } = twoTablesOfAnHour(joins);
    const v = new Venue();
    const quotes: { minutes: number; basis: unknown }[] = [];
    const countsAt = (i: number, at: number) => {
      const waiting = joins.map((j, k) => k).filter((k) => k < i && seats[k]! > at);
      const aheadByBand = [0, 0, 0, 0];
      for (const k of waiting) aheadByBand[bands[k]!]! += 1;
      const aheadInBand = aheadByBand[bands[i]!]!;
      return { ahead: waiting.length, called: 0, aheadInBand, calledInBand: 0, aheadByBand, calledByBand: [0, 0, 0, 0] };
    };
    for (const e of events) {
      if (e.join) {
        const quote = estimate(v.book(e.at), bands[e.i]!, countsAt(e.i, e.at), true);
        quotes[e.i] = { minutes: quote?.time ?? 6, basis: quote?.basis ?? { venue: null, band: null } };
      } else v.seat(party(joins[e.i]!, quotes[e.i]), e.at, bands[e.i]);
    }
    // Band 2's first class ([2, 3]) holds both tables: two tables forecast best, better than the
    // band's own occupancy (a quarter of the occupants, a quarter of the competitors).
    const cycle = cycleOf(v.paces.get(2))!;
    const errors = cycle.cls![0]!.occError!.map((e) => e ?? Infinity);
    const best = errors.indexOf(Math.min(...errors));
    expect(CYCLE_TABLES[best]).toBe(2);
    expect(errors[best]).toBeLessThan(20);
    expect(errors[best]).toBeLessThan(Math.min(...cycle.occError!.map((e) => e ?? Infinity)));
    // Bigger parties ahead take its tables; smaller ones do not.
    const at = seats.at(-1)! + MIN;
    const forecast = (aheadByBand: number[]) => {
      const counts = { ahead: 3, called: 0, aheadInBand: 0, calledInBand: 0, aheadByBand, calledByBand: [] };
      return estimate(v.book(at), 2, counts, true)!.basis!.band!.cls![0]![best]!;
    };
    expect(forecast([0, 0, 0, 3])).toBeGreaterThan(forecast([3, 0, 0, 0]) + 30);
  });

  it('a quote basis it cannot read teaches nothing but the interval, and breaks nothing', () => {
    for (const quote_basis of ['not json', '{"band":{"cycle":3}}', '{"venue":{"pace":2}}']) {
      const row = nextPace(undefined, VENUE, 0, { created_at: T0, quoted_minutes: 5, quote_basis }, T0 + 4 * MIN);
      expect([row.samples, row.service_ms, row.fit_w]).toEqual([1, 4 * MIN, 0]);
    }
  });

  it('gives a range around the quote, and learns its spread from how quotes turned out', () => {
    expect(rangeOf(20, -0.35, 0.45)).toEqual({ time: 20, low: 11, high: 32 });
    expect(rangeOf(0.2, -0.35, 0.45)).toEqual({ time: 1, low: 0, high: 3 });
    const v = new Venue();
    // Quotes of 20 minutes; waits spread evenly from 10 to 30 minutes.
    for (let i = 0; i < 400; i++) {
      const wait = 10 + ((i * 7) % 21);
      v.seat(party(T0 + i * MIN, { minutes: 20, basis: { venue: null, band: null } }), T0 + i * MIN + wait * MIN);
    }
    const row = v.paces.get(VENUE_WIDE_BAND)!;
    // Toward the 10th and 90th percentiles of (wait - 20) / (20 + 5), about -0.32 and +0.32 ...
    expect(row.spread_low).toBeLessThan(-0.15);
    expect(row.spread_high).toBeGreaterThan(0.1);
    expect(row.spread_high).toBeLessThan(0.45); // narrower than the built-in spread
    // ... so that the range around a quote of 20 holds about 80% of these waits.
    const range = rangeOf(20, row.spread_low, row.spread_high);
    const waits = Array.from({ length: 21 }, (_, i) => 10 + i);
    const inside = waits.filter((w) => w >= range.low && w <= range.high).length / waits.length;
    expect(inside).toBeGreaterThanOrEqual(0.65);
    expect(inside).toBeLessThanOrEqual(0.95);
  });
});
