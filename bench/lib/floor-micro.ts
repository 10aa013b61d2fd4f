// The floor's calibrated spreads (calibration.ts `spreadOf`), as a busy venue's joins and position
// reads ask them (docs/decisions/068-spreads-sorted-once.md), each against the way before, in the
// same process, in turns (bench/lib/micro-compare.ts):
// - one band's spreads: the ring sorted afresh (before) against the ring's kept spreads (now);
// - a join placed behind the queue (floor.ts `forecastBehind`, 60 runs, the busy floor's 22 tables):
//   its spreads worked out afresh (before) against the kept ones (now);
// - a kept book's seats of 200 waiting parties (floor.ts `keptSeats`), each party's asked once, as
//   a refresh of the venue's screens asks them: each party's spreads worked out afresh (before)
//   against the kept ones (now);
// - a seat's quantiles (floor.ts `seatOfRuns`): by a closure made at each seat (before) against a
//   function of the module (now).
// Run: node --import tsx bench/lib/floor-micro.ts
import { busyFloorState } from '../../apps/server/test/busy-floor.js';
import { spreadOf, spreadOfRing, withResidual } from '../../apps/server/src/modules/estimate/calibration.js';
import { type FloorState, forecastBehind, forecastKept, keptSeats } from '../../apps/server/src/modules/estimate/floor.js';
import { compareInTurns } from './micro-compare.js';

const now = Date.UTC(2026, 10, 27, 20);
const state = busyFloorState(now, 0.1);
// A floor that has scored its quotes: a full ring (64) for the venue and for each band.
let ring: readonly number[] = [];
for (let i = 0; i < 64; i++) ring = withResidual(ring, Math.sin(i * 1.7) * 0.45 + 0.05);
const rings = [-1, 0, 1, 2].map((band) => ({ band, ring: [...ring] }));
state.residuals = rings;
/**
 * The same state whose rings are new copies at every look, so no spread of them is known: as every
 * ask sorted its ring before (copying the four rings costs 0.3-0.6 µs, a twentieth of a sort).
 */
const before: FloorState = { ...state };
Object.defineProperty(before, 'residuals', { get: () => rings.map(({ band, ring }) => ({ band, ring: [...ring] })) });

compareInTurns(
  "one band's spreads: sorted afresh / kept",
  () => spreadOfRing(ring),
  () => spreadOf(ring),
);

const waiting = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, size: (i % 8) + 1, joinedAt: now - (200 - i) * 10_000 }));
// Each comparison on a tail of its own: placing a join grows the tail's runs behind the queue.
const tails = [forecastKept(state, { waiting, called: [] }, now, 'basic'), forecastKept(state, { waiting, called: [] }, now, 'basic')];
let joins = 0;
compareInTurns(
  'a join placed behind 200 waiting: spreads worked out afresh / kept',
  () => forecastBehind(before, tails[0]!, [{ size: (joins++ % 4) + 1 }], now, 'basic'),
  () => forecastBehind(state, tails[1]!, [{ size: (joins++ % 4) + 1 }], now, 'basic'),
);

const book = forecastKept(state, { waiting, called: [] }, now, 'basic');
const everySeat = (floor: FloorState) => {
  const seats = keptSeats(floor, book);
  for (const p of waiting) seats.get(p.id);
};
compareInTurns(
  "a kept book's 200 seats: spreads worked out afresh / kept",
  () => everySeat(before),
  () => everySeat(state),
  { n: 500 },
);

// A seat's quantiles from its sorted runs (floor.ts `seatOfRuns`): by a closure made at each seat
// (before) against a function of the module (now). Run through tsx, as the server is: it keeps
// every function's name by defining it on the function, for each closure made.
const sorted = Float64Array.from({ length: 60 }, (_, i) => now + i * 60_000);
const byClosure = (times: Float64Array) => {
  const count = times.length;
  const at = (q: number) => times[Math.min(count - 1, Math.floor(q * count))]!;
  return at(0.1) + at(0.5) + at(0.9);
};
const quantile = (times: Float64Array, q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
const byFunction = (times: Float64Array) => quantile(times, 0.1) + quantile(times, 0.5) + quantile(times, 0.9);
compareInTurns(
  "a seat's three quantiles: a closure made at each seat / a function of the module",
  () => byClosure(sorted),
  () => byFunction(sorted),
);
