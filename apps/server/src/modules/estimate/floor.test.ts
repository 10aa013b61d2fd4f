import { describe, expect, it } from 'vitest';
import {
  FORECAST_RUNS,
  type FloorParty,
  type FloorSeat,
  type FloorState,
  copyTail,
  fittingTables,
  forecastBehind,
  floorFor,
  floorReady,
  forecastFloor,
  forecastKept,
  freshFloor,
  keptSeats,
  layoutOf,
  onCall,
  onEnd,
  onSeat,
  parseFloor,
  quoteOfSeat,
  rebaseKept,
  turnGivenAge,
} from './floor.js';
import { turnSurvival } from './occupancy.js';
import { busyFloorState } from '../../../test/busy-floor.js';

// docs/decisions/022-wait-estimates.md, "The floor": the venue's tables followed from its calls,
// seats and ends, and the next seatings played forward. Pure: no store, no clock but `at`.

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 19); // a Monday, 19:00 UTC

const party = (id: string, size: number, joinedAt: number, calledAt: number | null = null): FloorParty => ({
  id,
  size,
  joinedAt,
  calledAt,
});
const seatsOf = (state: FloorState, indices: number[]) => indices.map((i) => state.tables[i]!.seats);

/**
 * A venue with one table of four, always full: each party waited half an hour for it, is called
 * the moment the table's party leaves (after `turn` minutes) and walks in `walk` minutes later.
 * Everything the floor knows comes from the events, as the services send them.
 */
function servedFloor(turn: number, services: number, walk = 4): { state: FloorState; at: number } {
  const state = freshFloor([{ seats: 4, count: 1 }]);
  let at = T0;
  onSeat(state, party('first', 4, at), at, 'basic'); // seated at the door: the table is busy
  for (let i = 0; i < services; i++) {
    at += turn * MIN;
    const p = party(`p${i}`, 4, at - 30 * MIN);
    onCall(state, p, at, 'basic');
    const calledAt = at;
    at += walk * MIN;
    onSeat(state, { ...p, calledAt }, at, 'basic');
  }
  return { state, at };
}

describe('fittingTables', () => {
  const tables = freshFloor([
    { seats: 6, count: 1 },
    { seats: 2, count: 2 },
    { seats: 4, count: 2 },
  ]).tables; // smallest first: 2, 2, 4, 4, 6

  it('basic mode: a table with at most two seats spare', () => {
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 3, 'basic'))).toEqual([4, 4]);
    expect(fittingTables(tables, 3, 'basic')).toEqual([2, 3]);
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 5, 'basic'))).toEqual([6]);
    // A couple fits a table of two or of four, the smaller first.
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 2, 'basic'))).toEqual([2, 2, 4, 4]);
  });

  it('advanced mode: a table of the party’s band only', () => {
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 2, 'advanced'))).toEqual([2, 2]);
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 3, 'advanced'))).toEqual([4, 4]);
    expect(seatsOf({ tables } as FloorState, fittingTables(tables, 6, 'advanced'))).toEqual([6]);
  });

  it('when none fits the rule: the smallest big enough, else the largest', () => {
    const big = freshFloor([
      { seats: 2, count: 1 },
      { seats: 4, count: 1 },
      { seats: 6, count: 1 },
      { seats: 8, count: 2 },
    ]).tables;
    expect(seatsOf({ tables: big } as FloorState, fittingTables(big, 9, 'basic'))).toEqual([8, 8]);
    expect(seatsOf({ tables: big } as FloorState, fittingTables(big, 12, 'advanced'))).toEqual([8, 8]);
    const sparse = freshFloor([
      { seats: 2, count: 1 },
      { seats: 10, count: 1 },
    ]).tables;
    // Seven people, no table of 7 to 9 seats: the table of ten, not the largest by default.
    expect(seatsOf({ tables: sparse } as FloorState, fittingTables(sparse, 7, 'basic'))).toEqual([10]);
  });
});

describe('cold start', () => {
  it('a fresh floor is not ready, nor no floor at all', () => {
    expect(floorReady(freshFloor([{ seats: 4, count: 3 }]))).toBe(false);
    expect(floorReady(null)).toBe(false);
  });

  it('after a service of parties who waited for busy tables, it is', () => {
    const { state } = servedFloor(60, 60);
    expect(floorReady(state)).toBe(true);
    expect(state.turns.reduce((s, t) => s + t.n, 0)).toBeGreaterThan(0);
    expect(state.walks.length).toBeGreaterThan(0);
  });

  it('seats at the door teach no walk, and calls of parties who did not wait teach no turn', () => {
    const state = freshFloor([{ seats: 4, count: 1 }]);
    let at = T0;
    for (let i = 0; i < 60; i++) {
      onSeat(state, party(`door${i}`, 4, at), at, 'basic');
      at += 60 * MIN;
    }
    expect(state.walks).toEqual([]);
    for (let i = 0; i < 60; i++) {
      const p = party(`now${i}`, 4, at); // joined the moment it was called
      onCall(state, p, at, 'basic');
      at += 2 * MIN;
      onSeat(state, { ...p, calledAt: at - 2 * MIN }, at, 'basic');
      at += 60 * MIN;
    }
    expect(state.turns.reduce((s, t) => s + t.n, 0)).toBe(0);
    expect(floorReady(state)).toBe(false);
  });
});

describe('the events', () => {
  const layout = [
    { seats: 2, count: 2 },
    { seats: 4, count: 2 },
  ]; // tables 0, 1: two seats; 2, 3: four

  it('a call holds the smallest free fitting table; the seat makes it busy', () => {
    const state = freshFloor(layout);
    const a = party('a', 3, T0 - 20 * MIN);
    onCall(state, a, T0, 'basic');
    expect(state.tables.map((t) => t.heldFor)).toEqual([null, null, 'a', null]);
    expect(state.tables[2]!.busySince).toBeNull();

    onCall(state, party('b', 2, T0 - 20 * MIN), T0, 'basic');
    expect(state.tables.map((t) => t.heldFor)).toEqual(['b', null, 'a', null]);

    onSeat(state, { ...a, calledAt: T0 }, T0 + 5 * MIN, 'basic');
    expect(state.tables[2]).toEqual({ seats: 4, busySince: T0 + 5 * MIN, party: 3, heldFor: null });
    expect(state.walks).toEqual([5]);
  });

  it('called again: the same table, no second one', () => {
    const state = freshFloor(layout);
    const a = party('a', 4, T0 - 20 * MIN);
    onCall(state, a, T0, 'basic');
    onCall(state, { ...a, calledAt: T0 }, T0 + 2 * MIN, 'basic');
    expect(state.tables.map((t) => t.heldFor)).toEqual([null, null, 'a', null]);
  });

  it('a called party marked as not coming frees its table', () => {
    const state = freshFloor(layout);
    const a = party('a', 4, T0 - 20 * MIN);
    onCall(state, a, T0, 'basic');
    const before = state.noShow;
    onEnd(state, { ...a, calledAt: T0 }, T0 + 15 * MIN, false);
    // Free again since the marking: the host's next look is not learned from it (the call comes at the same look).
    expect(state.tables[2]).toEqual({ seats: 4, busySince: null, party: 4, heldFor: null, freeSince: T0 + 15 * MIN });
    expect(state.noShow).toBeGreaterThan(before);
    // The freed table is the one the next party of four is called to.
    onCall(state, party('b', 4, T0), T0 + 16 * MIN, 'basic');
    expect(state.tables[2]!.heldFor).toBe('b');
  });

  it('waiting parties who give up: those behind them are seated sooner; the tables are untouched', () => {
    const learned = () => floorFor([{ seats: 4, count: 2 }], servedFloor(60, 40).state)!;
    const stay = learned();
    const leave = learned();
    let at = T0 + 7 * 24 * 60 * MIN;
    for (let i = 0; i < 100; i++) {
      at += 20 * MIN;
      onEnd(leave, party(`w${i}`, 4, at - 15 * MIN), at, true);
      onEnd(stay, party(`w${i}`, 4, at - 15 * MIN), at, false);
    }
    expect(leave.tables.every((t) => t.heldFor === null && t.busySince === null)).toBe(true);
    const now = at + MIN;
    const waiting = Array.from({ length: 8 }, () => ({ size: 4 }));
    for (const state of [stay, leave]) for (let i = 0; i < 2; i++) onSeat(state, party(`s${i}`, 4, now), now, 'basic');
    const last = (state: FloorState) => forecastFloor(state, { waiting, called: [] }, now, 'basic', { upTo: 7, seed: 5 }).seats[7]!;
    expect(last(leave).mid).toBeLessThan(last(stay).mid);
  });

  it('a busy table given to a party that waited ends a turn, learned by the band of the party at it', () => {
    const state = freshFloor([{ seats: 4, count: 1 }]);
    onSeat(state, party('door', 4, T0), T0, 'basic');
    onCall(state, party('a', 3, T0), T0 + 70 * MIN, 'basic');
    expect(state.turns).toEqual([{ band: 1, mean: 70, n: 1 }]);
    expect(state.tables[0]!.heldFor).toBe('a');
  });
});

describe('turns', () => {
  it('a venue whose tables stay 90 minutes quotes a party behind a full floor later than one whose tables stay 45', () => {
    const slow = servedFloor(90, 40);
    const fast = servedFloor(45, 40);
    // Both learned their own turn from the calls alone.
    expect(slow.state.turns[0]!.mean).toBeCloseTo(90, 0);
    expect(fast.state.turns[0]!.mean).toBeCloseTo(45, 0);
    // The floor now: the one table busy since just now, two parties of four waiting before ours.
    const waiting = [{ size: 4 }, { size: 4 }, { size: 4 }];
    const waitOf = (s: { state: FloorState; at: number }) => {
      const seat = forecastFloor(s.state, { waiting, called: [] }, s.at, 'basic', { seed: 7 }).seats[2]!;
      return (seat.mid - s.at) / MIN;
    };
    const slowWait = waitOf(slow);
    const fastWait = waitOf(fast);
    expect(slowWait).toBeGreaterThan(fastWait * 1.5);
    // Three turns of the table, give or take: the third party sits once it has freed three times.
    expect(fastWait).toBeGreaterThan(2 * 45);
    expect(fastWait).toBeLessThan(5 * 45);
  });
});

describe('the forecast', () => {
  /** A venue that learned hour-long turns on one table, now with three tables of four. */
  const learned = () => floorFor([{ seats: 4, count: 3 }], servedFloor(60, 40).state)!;
  const NOW = T0 + 30 * 24 * 60 * MIN;
  /** The floor with `busy` of its three tables seated just now. */
  const withBusy = (busy: number) => {
    const state = learned();
    for (let i = 0; i < busy; i++) onSeat(state, party(`s${i}`, 4, NOW - 10 * MIN), NOW, 'basic');
    return state;
  };
  const forecast = (state: FloorState, ahead: number, seed = 11) =>
    forecastFloor(state, { waiting: Array.from({ length: ahead + 1 }, () => ({ size: 4 })), called: [] }, NOW, 'basic', {
      upTo: ahead,
      seed,
    }).seats[ahead]!;

  it('every fitting table busy since just now: later than with one of them free', () => {
    expect(withBusy(3).tables.every((t) => t.busySince === NOW)).toBe(true);
    const full = forecast(withBusy(3), 0);
    const oneFree = forecast(withBusy(2), 0);
    expect(full.mid).toBeGreaterThan(oneFree.mid);
    // A free table: the party is called now and walks in; a full floor: a turn away.
    expect(oneFree.mid - NOW).toBeLessThan(20 * MIN);
    expect(full.mid - NOW).toBeGreaterThan(25 * MIN);
  });

  it('more parties ahead: later', () => {
    const state = withBusy(3);
    const waits = [0, 2, 5, 9].map((ahead) => forecast(state, ahead).mid);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
  });

  it('a table held for a called party is not free for the newcomer', () => {
    const free = learned();
    const held = learned();
    const caller = party('c', 4, NOW - 30 * MIN);
    for (const state of [free, held]) {
      onSeat(state, party('s0', 4, NOW), NOW, 'basic');
      onSeat(state, party('s1', 4, NOW), NOW, 'basic');
    }
    onCall(held, caller, NOW, 'basic');
    const called = [{ ...caller, calledAt: NOW }];
    const waiting = [{ size: 4 }];
    const a = forecastFloor(free, { waiting, called: [] }, NOW, 'basic', { seed: 3 }).seats[0]!;
    const b = forecastFloor(held, { waiting, called }, NOW, 'basic', { seed: 3 }).seats[0]!;
    expect(b.mid).toBeGreaterThan(a.mid);
  });

  it('the 10th to 90th percentile range holds the median; the quote is never a range of one figure', () => {
    const state = withBusy(3);
    for (const ahead of [0, 1, 4, 8]) {
      const seat = forecast(state, ahead);
      expect(seat.low).toBeLessThanOrEqual(seat.mid);
      expect(seat.mid).toBeLessThanOrEqual(seat.high);
      expect(seat.high).toBeGreaterThan(seat.low);
      const quote = quoteOfSeat(seat, NOW);
      expect(quote.low).toBeLessThan(quote.time);
      expect(quote.time).toBeLessThan(quote.high);
      expect(quote.time).toBe(Math.round((seat.mid - NOW) / MIN));
    }
    // Even a forecast with no spread, or a seat right now.
    expect(quoteOfSeat({ low: NOW + 20 * MIN, mid: NOW + 20 * MIN, high: NOW + 20 * MIN }, NOW)).toEqual({ time: 20, low: 19, high: 21 });
    expect(quoteOfSeat({ low: NOW, mid: NOW, high: NOW }, NOW)).toEqual({ time: 1, low: 0, high: 2 });
    expect(quoteOfSeat({ low: NOW + 12.5 * MIN, mid: NOW + 20.2 * MIN, high: NOW + 31.1 * MIN }, NOW)).toEqual({
      time: 20,
      low: 12,
      high: 32,
    });
  });

  it('deterministic with the same seed', () => {
    const state = withBusy(3);
    const queue = { waiting: Array.from({ length: 6 }, (_, i) => ({ size: 2 + (i % 3) })), called: [] };
    const a = forecastFloor(state, queue, NOW, 'basic', { seed: 42 });
    const b = forecastFloor(state, queue, NOW, 'basic', { seed: 42 });
    expect(b).toEqual(a);
    expect(a.seats.every((s) => s !== null)).toBe(true);
    // The forecast reads the state, never changes it.
    expect(withBusy(3)).toEqual(state);
  });
});

describe('the layout', () => {
  it('another table list starts a fresh floor but keeps what was learned', () => {
    const { state: kept } = servedFloor(75, 30);
    const tables = [
      { seats: 2, count: 2 },
      { seats: 4, count: 1 },
    ];
    const next = floorFor(tables, kept)!;
    expect(next.layout).toBe(layoutOf(tables));
    expect(next.layout).not.toBe(kept.layout);
    expect(next.tables).toEqual([
      { seats: 2, busySince: null, party: 2, heldFor: null },
      { seats: 2, busySince: null, party: 2, heldFor: null },
      { seats: 4, busySince: null, party: 4, heldFor: null },
    ]);
    expect(next.turns).toEqual(kept.turns);
    expect(next.walks).toEqual(kept.walks);
    expect(next.walks.length).toBeGreaterThan(0);
    expect(floorReady(next)).toBe(floorReady(kept));
  });

  it('the same list keeps the floor as it is, whatever the order; no list, no floor', () => {
    const { state: kept } = servedFloor(75, 30);
    expect(floorFor([{ seats: 4, count: 1 }], kept)).toBe(kept);
    const two = freshFloor([
      { seats: 4, count: 1 },
      { seats: 2, count: 3 },
    ]);
    expect(
      floorFor(
        [
          { seats: 2, count: 3 },
          { seats: 4, count: 1 },
        ],
        two,
      ),
    ).toBe(two);
    expect(floorFor([], kept)).toBeNull();
    expect(floorFor([{ seats: 4, count: 2 }], null)).toEqual(freshFloor([{ seats: 4, count: 2 }]));
  });

  it('the stored row reads back; anything else reads as none', () => {
    const { state } = servedFloor(60, 12);
    expect(parseFloor(JSON.stringify(state))).toEqual(state);
    expect(parseFloor(null)).toBeNull();
    expect(parseFloor('')).toBeNull();
    expect(parseFloor('{not json')).toBeNull();
    expect(parseFloor('{"layout":"4x1"}')).toBeNull();
  });
});

describe("the host's next look (docs/decisions/037-calibrated-ranges.md)", () => {
  /**
   * A floor of one table of four, learned hour-long turns, whose host calls a party that finds
   * the table free `look` minutes after it joined (then it does not come: the table is free again).
   */
  const lookingFloor = (look: number) => {
    const state = floorFor([{ seats: 4, count: 1 }], servedFloor(60, 40).state)!;
    let at = T0 + 10 * 24 * 60 * MIN;
    state.tables[0]!.busySince = null;
    for (let i = 0; i < 12; i++) {
      const p = party(`l${i}`, 4, at);
      at += look * MIN;
      onCall(state, p, at, 'basic');
      at += MIN;
      onEnd(state, { ...p, calledAt: at - MIN }, at, false);
      at += MIN;
    }
    return { state, at };
  };

  it('learned from a party that found a table free: the minutes from its join to its call', () => {
    const { state } = lookingFloor(9);
    expect(state.looks).toHaveLength(12);
    expect(state.looks!.every((m) => m === 9)).toBe(true);
    // A table freed while a party waited (a no-show marked) teaches nothing: the call comes at the same look.
    const late = party('late', 4, T0);
    onCall(state, late, T0 + 20 * MIN, 'basic');
    expect(state.looks).toHaveLength(12);
  });

  it('a table already free: the party is seated at the host\u2019s next look plus its walk, not at once', () => {
    const slow = lookingFloor(12);
    const quick = lookingFloor(1);
    const waitOf = ({ state, at }: { state: FloorState; at: number }) => {
      expect(state.tables[0]!.busySince).toBeNull();
      const seat = forecastFloor(state, { waiting: [{ size: 4 }], called: [] }, at, 'basic', { seed: 9, upTo: 0 }).seats[0]!;
      return (seat.mid - at) / MIN;
    };
    const walk = [...slow.state.walks].sort((a, b) => a - b)[Math.floor(slow.state.walks.length / 2)]!;
    expect(waitOf(slow)).toBeGreaterThanOrEqual(12 + walk - 1);
    expect(waitOf(slow) - waitOf(quick)).toBeGreaterThan(8);
  });
});

describe("the floor's calibrated range (calibration.ts)", () => {
  it('a floor whose parties waited twice its quote sets a higher top; the median is its own', () => {
    const base = floorFor([{ seats: 4, count: 3 }], servedFloor(60, 40).state)!;
    const fair = structuredClone(base);
    const long = structuredClone(base);
    let at = T0 + 20 * 24 * 60 * MIN;
    for (let i = 0; i < 40; i++) {
      at += 30 * MIN;
      onSeat(fair, { ...party(`f${i}`, 4, at - 20 * MIN), quoted: 20 }, at, 'basic');
      onSeat(long, { ...party(`g${i}`, 4, at - 40 * MIN), quoted: 20 }, at, 'basic');
    }
    // The same tables for both, so only what they learned of their errors differs.
    long.tables = structuredClone(fair.tables);
    const waiting = [{ size: 4 }, { size: 4 }];
    const a = forecastFloor(fair, { waiting, called: [] }, at, 'basic', { seed: 4 }).seats[1]!;
    const b = forecastFloor(long, { waiting, called: [] }, at, 'basic', { seed: 4 }).seats[1]!;
    expect(b.mid).toBe(a.mid);
    expect(b.high - b.mid).toBeGreaterThan(a.high - a.mid + 10 * MIN);
    // A floor that has scored no quote yet keeps its runs' own 10th to 90th percentile.
    expect(base.residuals).toBeUndefined();
  });
});

describe('re-quotes of a party that has waited (docs/decisions/041-requotes-behind-an-overdue-table.md)', () => {
  it('a turn drawn given its age is the log-normal beyond that age, exactly', () => {
    const median = 60;
    for (const age of [30, 90, 180, 300]) {
      for (const u of [0.9, 0.5, 0.1]) {
        const turn = turnGivenAge(median, age, u);
        expect(turn).toBeGreaterThanOrEqual(age);
        // P(turn > drawn | turn > age) = u: the inverse of the conditional survival.
        expect(turnSurvival(turn, median) / turnSurvival(age, median)).toBeCloseTo(u, 3);
      }
    }
    // What is left of a table past its turn grows with its age: it is not about to free.
    const left = (age: number) => turnGivenAge(median, age, 0.5) - age;
    expect(left(240)).toBeGreaterThan(left(120));
    expect(left(240)).toBeGreaterThan(15);
    // A fresh table: the turn's own median.
    expect(turnGivenAge(median, 0, 0.5)).toBeCloseTo(median, 6);
  });

  it('a party behind the only table, busy four hours past an hour-long turn, is not quoted a few minutes', () => {
    const { state, at } = servedFloor(60, 40);
    const now = at + 240 * MIN; // the table seated at `at` has been busy four hours since
    const seat = forecastFloor(state, { waiting: [{ size: 4, joinedAt: now - 200 * MIN }], called: [] }, now, 'basic', { seed: 5 })
      .seats[0]!;
    // Its walk is 4 minutes: what is left of the turn is what the quote is made of.
    expect((seat.mid - now) / MIN).toBeGreaterThan(20);
    expect((seat.high - now) / MIN).toBeGreaterThan(40);
  });

  it("a calibrated range from join quotes: a party that has waited reaches at least the runs' top from the calibrated bottom, a newcomer gets the calibrated range", () => {
    const runsOnly = floorFor([{ seats: 4, count: 3 }], servedFloor(60, 40).state)!;
    const tight = structuredClone(runsOnly);
    let at = T0 + 20 * 24 * 60 * MIN;
    // Every join quote came true to the minute: the calibrated range is the median alone.
    for (let i = 0; i < 40; i++) {
      at += 30 * MIN;
      onSeat(tight, { ...party(`t${i}`, 4, at - 20 * MIN), quoted: 20 }, at, 'basic');
    }
    runsOnly.tables = structuredClone(tight.tables);
    const seatOf = (state: FloorState, joinedAt: number) =>
      forecastFloor(
        state,
        {
          waiting: [
            { size: 4, joinedAt: at - 90 * MIN },
            { size: 4, joinedAt },
          ],
          called: [],
        },
        at,
        'basic',
        { seed: 9 },
      ).seats[1]!;
    const runs = seatOf(runsOnly, at - 60 * MIN);
    const waited = seatOf(tight, at - 60 * MIN);
    const newcomer = seatOf(tight, at);
    expect(runs.high).toBeGreaterThan(runs.mid);
    expect(waited.mid).toBe(runs.mid);
    // The calibrated bottom (the median: every join quote came true), not the runs' lower one
    // (docs/decisions/055-requotes-widened-upwards.md).
    expect(runs.low).toBeLessThan(runs.mid);
    expect(waited.low).toBe(newcomer.low);
    expect(waited.high).toBe(runs.high);
    expect(newcomer.mid).toBe(runs.mid);
    expect(newcomer.high).toBe(newcomer.mid);
  });
});

describe("the whole-queue forecast's cost (docs/decisions/037-calibrated-ranges.md: linear in the queue)", () => {
  it('its steps per party do not grow with the queue', () => {
    const state = floorFor(
      [
        { seats: 2, count: 4 },
        { seats: 4, count: 4 },
        { seats: 6, count: 2 },
      ],
      servedFloor(60, 40).state,
    )!;
    const now = T0 + 20 * 24 * 60 * MIN;
    state.tables.forEach((t, i) => Object.assign(t, { busySince: now - i * 5 * MIN, party: t.seats }));
    const stepsPerParty = (n: number) => {
      const waiting = Array.from({ length: n }, (_, j) => ({ size: 1 + ((j * 7) % 6), joinedAt: now - (n - j) * 0.2 * MIN }));
      const cost = { steps: 0 };
      const forecast = forecastFloor(state, { waiting, called: [] }, now, 'basic', { seed: 2, cost });
      expect(forecast.seats).toHaveLength(n);
      return cost.steps / n;
    };
    const small = stepsPerParty(50);
    const large = stepsPerParty(1_000);
    expect(large).toBeLessThanOrEqual(1.5 * small);
  });
});

describe('joins behind the whole queue (docs/decisions/043-busy-venue-joins.md)', () => {
  const NOW = T0 + 20 * 24 * 60 * MIN;
  /** A venue like the API bench's busy one: 22 tables, all but one busy for a while, a fifth of the waiting give up. */
  const busyFloor = (): FloorState => busyFloorState(NOW, 0.2, 3);
  const queueOf = (ahead: number) =>
    Array.from({ length: ahead }, (_, i) => ({ size: ((i * 5) % 8) + 1, joinedAt: NOW - (ahead - i) * MIN }));

  it("keeping the tail changes none of the queue's seats", () => {
    const state = busyFloor();
    const queue = { waiting: queueOf(30), called: [] };
    const plain = forecastFloor(state, queue, NOW, 'basic', { seed: 4 });
    const { tail, ...withTail } = forecastFloor(state, queue, NOW, 'basic', { seed: 4, tail: true });
    expect(withTail).toEqual(plain);
    expect(tail?.freeAt).toHaveLength(FORECAST_RUNS * state.tables.length);
    expect(tail?.freeAt.every((t) => t >= NOW && t < Infinity)).toBe(true);
  });

  it('newcomers placed on the tail get the seats the forecast of the queue with them at its end gives (same distribution)', () => {
    const state = busyFloor();
    // Many runs on both sides: the two are different draws of the same futures.
    const runs = 5_000;
    const close = (a: FloorSeat, b: FloorSeat) => {
      for (const k of ['low', 'mid', 'high'] as const) {
        const wait = (b[k] - NOW) / MIN;
        expect(Math.abs(a[k] - b[k]) / MIN).toBeLessThanOrEqual(1 + 0.02 * wait);
      }
    };
    for (const ahead of [0, 20]) {
      const waiting = queueOf(ahead);
      const book = forecastFloor(state, { waiting, called: [] }, NOW, 'basic', { runs, tail: true, seed: 5 });
      const sizes = [2, 2, 7, 1];
      const tail = copyTail(book.tail!);
      const placed = forecastBehind(
        state,
        tail,
        sizes.map((size) => ({ size })),
        NOW,
        'basic',
      );
      sizes.forEach((_, k) => {
        const queue = [...waiting, ...sizes.slice(0, k + 1).map((s) => ({ size: s, joinedAt: NOW }))];
        const fresh = forecastFloor(state, { waiting: queue, called: [] }, NOW, 'basic', { runs, upTo: queue.length - 1, seed: 9 });
        close(placed[k]!, fresh.seats[queue.length - 1]!);
      });
      // The book's own tail is not changed: another newcomer placed on a copy of it gets the first one's seat.
      expect(forecastBehind(state, copyTail(book.tail!), [{ size: 2 }], NOW, 'basic')[0]).toEqual(placed[0]);
    }
  });
});

describe('a kept forecast rebased while nothing happens (docs/decisions/047-rebased-books.md)', () => {
  const NOW = T0 + 20 * 24 * 60 * MIN;
  const queueOf = (ahead: number) =>
    Array.from({ length: ahead }, (_, i) => ({ id: `w${i}`, size: ((i * 5) % 8) + 1, joinedAt: NOW - (ahead - i) * MIN }));
  const close = (a: FloorSeat | undefined, b: FloorSeat | null | undefined, now: number) => {
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    let off = 0;
    for (const k of ['low', 'mid', 'high'] as const) {
      const wait = (b![k] - now) / MIN;
      off = Math.max(off, Math.abs(a![k] - b![k]) / MIN - 0.02 * wait);
    }
    return off;
  };

  it('gives the seats a forecast of the later moment gives (same distribution), to the queue and to those placed behind it', () => {
    // The bench's busy venue, every table busy, a fifth of the waiting giving up: in a quiet minute
    // about half the runs see a table free or a party give up; in six, nearly all.
    const state = busyFloorState(NOW, 0.2);
    const runs = 5_000;
    const waiting = queueOf(20);
    const kept = forecastKept(state, { waiting, called: [] }, NOW, 'basic', { runs, seed: 5 });
    const joinedAt = NOW + 1_000;
    const newcomers = [
      { id: 'n0', size: 2 },
      { id: 'n1', size: 7 },
    ];
    const firstRow = kept.kept.rows;
    forecastBehind(state, kept, newcomers, joinedAt, 'basic');
    newcomers.forEach((n, k) => kept.kept.rowOf.set(n.id, firstRow + k));
    const everyone = [...waiting, ...newcomers.map((n) => ({ ...n, joinedAt }))];
    let played = 0;
    for (const quiet of [1, 6]) {
      const later = NOW + quiet * MIN;
      // Rebased every 2 s, as a kept book expires.
      for (let at = kept.kept.at + 2_000; at <= later; at += 2_000) played += rebaseKept(state, kept, at, 'basic');
      const seats = keptSeats(state, kept);
      const fresh = forecastFloor(state, { waiting: everyone, called: [] }, later, 'basic', { runs, seed: 9 });
      // The runs of the first moment, not rebased, quote too early by more than that (the check has teeth).
      const stale = forecastFloor(state, { waiting: everyone, called: [] }, NOW, 'basic', { runs, seed: 9 });
      const offs = everyone.map((p, j) => close(seats.get(p.id), fresh.seats[j], later));
      const staleOffs = everyone.map((_, j) => close(stale.seats[j] ?? undefined, fresh.seats[j], later));
      expect(Math.max(...offs)).toBeLessThanOrEqual(1);
      if (quiet === 6) expect(Math.max(...staleOffs)).toBeGreaterThan(1);
    }
    // Most runs stand at each rebase: far fewer played again than a forecast of each moment.
    expect(played).toBeLessThan((runs * 6 * 60) / 2 / 10);
  });
});

describe("the forecast's horizon (docs/decisions/069-a-forecast-horizon.md)", () => {
  const NOW = T0 + 20 * 24 * 60 * MIN;
  /** One table of four, hour-long turns, busy since just now: the k-th party of four sits after about k turns. */
  const oneTable = (): FloorState => {
    const state = floorFor([{ seats: 4, count: 1 }], servedFloor(60, 40).state)!;
    state.leaveShare = 0;
    state.tables[0]!.busySince = NOW;
    state.tables[0]!.party = 4;
    return state;
  };
  const fours = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `f${i}`, size: 4, joinedAt: NOW - (n - i) * MIN }));

  it('a party the runs seat within twelve hours is quoted; one past them is not (the estimator quotes it), nor a join behind it', () => {
    const state = oneTable();
    const queue = { waiting: fours(40), called: [] };
    const { seats, tail } = forecastFloor(state, queue, NOW, 'basic', { seed: 3, tail: true });
    const waitOf = (j: number) => (seats[j]!.mid - NOW) / MIN;
    expect(waitOf(2)).toBeGreaterThan(2 * 60);
    expect(waitOf(7)).toBeLessThan(12 * 60);
    // About thirty turns ahead: past the horizon in every run.
    expect(seats.slice(30)).toEqual(Array.from({ length: 10 }, () => null));
    expect(tail!.freeAt.every((t) => t === Infinity)).toBe(true);
    expect(forecastBehind(state, tail!, [{ size: 4 }], NOW, 'basic')).toEqual([null]);
    // The same for a kept book's runs, and after a rebase.
    const kept = forecastKept(state, queue, NOW, 'basic', { seed: 3 });
    expect(keptSeats(state, kept).get('f35')).toBeUndefined();
    expect(keptSeats(state, kept).get('f2')).toBeDefined();
    kept.kept.firstEvent.fill(NOW);
    expect(rebaseKept(state, kept, NOW + 2_000, 'basic')).toBe(FORECAST_RUNS);
    expect(keptSeats(state, kept).get('f35')).toBeUndefined();
    expect(kept.freeAt.every((t) => t === Infinity)).toBe(true);
  });

  it('newcomers placed behind a queue that ends within the horizon: quoted until their table frees only past it, then not', () => {
    const state = oneTable();
    const kept = forecastKept(state, { waiting: fours(6), called: [] }, NOW, 'basic', { seed: 3 });
    const placed = forecastBehind(state, kept, fours(14), NOW, 'basic');
    const waits = placed.map((seat) => (seat ? (seat.mid - NOW) / MIN : null));
    expect(waits[0]).toBeGreaterThan(6 * 60);
    expect(waits[0]).toBeLessThan(9 * 60);
    // About an hour a party: the last ones are past twelve hours in every run.
    expect(waits.slice(10)).toEqual([null, null, null, null]);
    const last = kept.kept.times.subarray((kept.kept.rows - 1) * FORECAST_RUNS, kept.kept.rows * FORECAST_RUNS);
    expect(Array.from(last).every((t) => t === Infinity)).toBe(true);
  });

  it('a table no party still waiting fits keeps its moment for a newcomer behind a queue cut at the horizon', () => {
    const state = floorFor(
      [
        { seats: 2, count: 1 },
        { seats: 4, count: 1 },
      ],
      servedFloor(60, 40).state,
    )!;
    state.leaveShare = 0;
    for (const t of state.tables) Object.assign(t, { busySince: NOW, party: t.seats });
    const { tail } = forecastFloor(state, { waiting: fours(40), called: [] }, NOW, 'basic', { seed: 3, tail: true });
    const [two] = forecastBehind(state, tail!, [{ size: 2 }], NOW, 'basic');
    expect(two).not.toBeNull();
    expect((two!.mid - NOW) / MIN).toBeLessThan(3 * 60);
  });

  it('past the horizon a party costs a run one step (its draw to give up), not its seating', () => {
    const state = busyFloorState(NOW, 0.04);
    const stepsOf = (n: number) => {
      const waiting = Array.from({ length: n }, (_, j) => ({ size: 1 + ((j * 7) % 6), joinedAt: NOW - (n - j) * 0.02 * MIN }));
      const cost = { steps: 0 };
      forecastFloor(state, { waiting, called: [] }, NOW, 'basic', { seed: 2, cost });
      return cost.steps;
    };
    expect(stepsOf(20_000) - stepsOf(10_000)).toBeLessThanOrEqual(1.05 * FORECAST_RUNS * 10_000);
  });
});
