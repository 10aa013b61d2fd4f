import { describe, expect, it } from 'vitest';
import type { EntryRow, PaceRow } from '../../db/types.js';
import {
  DEFAULT_SPREAD_HIGH,
  DEFAULT_SPREAD_LOW,
  MIN_RESIDUALS,
  RESIDUALS_KEPT,
  rangeOf,
  residualOf,
  spreadOf,
  spreadOfRing,
  withResidual,
} from './calibration.js';
import { type PaceBook, VENUE_WIDE_BAND, estimate, nextPace } from './estimator.js';
import { seededRandom } from '../../lib/seeded-random.js';

// docs/decisions/037-calibrated-ranges.md: ranges set from each venue's own recent errors.

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 19);

/** A stream of quotes and waits: each wait is the quote times a log-normal factor with this median and spread. */
function stream(seed: number, n: number, median: number, sigma: number): { quoted: number; actual: number }[] {
  const r = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(Math.max(r(), 1e-12))) * Math.cos(2 * Math.PI * r());
  return Array.from({ length: n }, () => {
    const quoted = 5 + Math.floor(r() * 50);
    return { quoted, actual: quoted * median * Math.exp(sigma * normal()) };
  });
}

/** Online: each outcome is judged against the range set before it, then joins the ring. */
function coverage(outcomes: { quoted: number; actual: number }[]): { inside: number; pastTop: number; underBottom: number } {
  let ring: number[] = [];
  let inside = 0;
  let pastTop = 0;
  let underBottom = 0;
  let judged = 0;
  for (const { quoted, actual } of outcomes) {
    const spread = spreadOf(ring);
    if (spread) {
      const range = rangeOf(quoted, spread.low, spread.high);
      judged += 1;
      if (Math.floor(actual) > range.high) pastTop += 1;
      else if (actual < range.low) underBottom += 1;
      else inside += 1;
    }
    ring = withResidual(ring, residualOf(quoted, actual));
  }
  return { inside: inside / judged, pastTop: pastTop / judged, underBottom: underBottom / judged };
}

describe('calibrated ranges', () => {
  it('the ring keeps the last scores; its spreads speak once it holds enough', () => {
    let ring: number[] = [];
    for (let i = 0; i < MIN_RESIDUALS - 1; i++) ring = withResidual(ring, i / 100);
    expect(spreadOf(ring)).toBeNull();
    ring = withResidual(ring, 0.5);
    expect(spreadOf(ring)).not.toBeNull();
    for (let i = 0; i < 2 * RESIDUALS_KEPT; i++) ring = withResidual(ring, 1);
    expect(ring).toHaveLength(RESIDUALS_KEPT);
    expect(spreadOf(ring)).toEqual({ low: 1, high: 1 });
  });

  it("keeps each ring's spreads once worked out: the same as afresh, and a ring with one more score its own (docs/decisions/068-spreads-sorted-once.md)", () => {
    const r = seededRandom(8);
    let ring: readonly number[] = [];
    for (let i = 0; i < 3 * RESIDUALS_KEPT; i++) {
      const before = ring;
      const kept = spreadOf(before);
      ring = withResidual(ring, r() - 0.4);
      expect(spreadOf(ring)).toEqual(spreadOfRing(ring));
      // Asked again, the ring's own spreads (the same object), never changed by a later ring's.
      expect(spreadOf(ring)).toBe(spreadOf(ring));
      expect(spreadOf(before)).toBe(kept);
      if (kept) expect(Object.isFrozen(kept)).toBe(true);
    }
    expect(spreadOf(ring)).not.toBeNull();
  });

  it('on a stream of outcomes, about 80 % land inside the range and at most 10 % past its top', () => {
    // Waits that run 20 % long of their quotes on the median, spread as restaurants' turns.
    const result = coverage(stream(3, 4_000, 1.2, 0.35));
    expect(result.inside).toBeGreaterThan(0.75);
    expect(result.inside).toBeLessThan(0.87);
    expect(result.pastTop).toBeLessThanOrEqual(0.1);
    expect(result.underBottom).toBeLessThanOrEqual(0.1);
    // The default spread, which knows nothing of this venue, lets many more past its top.
    const naive = stream(3, 4_000, 1.2, 0.35).filter(({ quoted, actual }) => Math.floor(actual) > rangeOf(quoted, -0.35, 0.2).high);
    expect(naive.length / 4_000).toBeGreaterThan(0.2);
  });

  it('a venue whose waits run long learns a higher, wider range than one whose waits match its quotes', () => {
    const spreadAfter = (median: number, sigma: number) =>
      spreadOf(stream(5, 200, median, sigma).reduce<number[]>((ring, o) => withResidual(ring, residualOf(o.quoted, o.actual)), []))!;
    const exact = spreadAfter(1, 0.1);
    const long = spreadAfter(1.5, 0.4);
    expect(long.high).toBeGreaterThan(exact.high + 0.3);
    expect(long.high - long.low).toBeGreaterThan(exact.high - exact.low);
    expect(rangeOf(30, long.low, long.high).high).toBeGreaterThan(rangeOf(30, exact.low, exact.high).high + 10);
  });

  it('the estimator: its rows learn the ring from the quotes at join and quote a higher top once the venue runs long', () => {
    const quoteAt = (rows: Map<number, PaceRow>, at: number) => {
      const book: PaceBook = { paces: [...rows.values()], slots: [], slot: 0, at };
      return estimate(book, 0, { ahead: 2, called: 0, aheadInBand: 2, calledInBand: 0 })!;
    };
    const serve = (factor: number) => {
      const rows = new Map<number, PaceRow>();
      let at = T0;
      for (let i = 0; i < 120; i++) {
        const joined = at;
        const quote = rows.size ? quoteAt(rows, joined) : null;
        at += 10 * MIN;
        // Seated after the quote times `factor` (or 10 minutes while nothing is quoted).
        const wait = quote ? quote.time * factor : 10;
        const seated: Pick<EntryRow, 'created_at' | 'quoted_minutes' | 'quote_basis'> = {
          created_at: joined,
          quoted_minutes: quote?.time ?? null,
          quote_basis: null,
        };
        for (const band of [VENUE_WIDE_BAND, 0]) rows.set(band, nextPace(rows.get(band), 'v', band, seated, joined + wait * MIN));
      }
      return Object.assign(rows, { at });
    };
    const fair = serve(1);
    const long = serve(1.6);
    for (const rows of [fair, long]) expect(rows.get(0)!.quotes).toBeGreaterThanOrEqual(MIN_RESIDUALS);
    // Its spreads are no longer the defaults: the fair venue's top is narrower, the long one's higher.
    expect(fair.get(0)!.spread_high).toBeLessThan(DEFAULT_SPREAD_HIGH);
    expect(fair.get(0)!.spread_low).toBeGreaterThan(DEFAULT_SPREAD_LOW);
    expect(long.get(0)!.spread_high).toBeGreaterThan(fair.get(0)!.spread_high + 0.2);
    const q = quoteAt(long, long.at);
    expect((q.high - q.time) / (q.time + 5)).toBeGreaterThan(0.3);
  });

  it('whole minutes, rounded outwards, the quote inside and never a range of one figure', () => {
    expect(rangeOf(20, -0.35, 0.45)).toEqual({ time: 20, low: 11, high: 32 });
    // Both spreads above the quote (waits run long): the quote stays inside the range.
    expect(rangeOf(20, 0.1, 0.6)).toEqual({ time: 20, low: 19, high: 35 });
    expect(rangeOf(0, 0, 0)).toEqual({ time: 1, low: 0, high: 2 });
  });
});
