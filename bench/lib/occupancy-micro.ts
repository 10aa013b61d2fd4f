// The occupancy forecast a join keeps for every candidate table count (estimate/occupancy-forecast.ts
// `occupancyInputs`, estimate/README.md "Occupancy"): the departures of the last 1, 2, ... 24
// occupants. Before: every occupant's chances at all 120 steps first, then one Poisson-binomial
// recursion per candidate (17 of them, 170 occupants in all; apps/server/test/occupancy-alone.ts).
// Now: one recursion from the newest occupant back serves every candidate, each chance worked out
// when first needed (occupancy.ts `suffixFreeingTimes`). Same process, in turns
// (docs/decisions/018-optimisations-that-pay.md); a join works this out for the venue's row, its
// band's and each size class of the band (up to four a join).
// Run: node --import tsx bench/lib/occupancy-micro.ts
import { CANDIDATE_TABLES } from '../../apps/server/src/modules/estimate/candidates.js';
import { suffixFreeingTimes } from '../../apps/server/src/modules/estimate/occupancy.js';
import { chancesAlone, freeingTimesOfChances } from '../../apps/server/test/occupancy-alone.js';
import { compareInTurns } from './micro-compare.js';

const largest = CANDIDATE_TABLES[CANDIDATE_TABLES.length - 1]!;
// A dinner service: the last 24 parties seated one every 4 minutes (the newest just now), turns of 70 minutes.
const dinner = Array.from({ length: largest }, (_, i) => (largest - 1 - i) * 4);
// A slow hour: seated one every 12 minutes, so the oldest have likely left.
const slow = Array.from({ length: largest }, (_, i) => (largest - 1 - i) * 12);
const TURN = 70;

const before = (ages: number[], ahead: number) => {
  const chances = chancesAlone(ages, TURN);
  return CANDIDATE_TABLES.map((tables) =>
    tables > chances.length ? null : freeingTimesOfChances(chances.slice(chances.length - tables), Math.min(ahead + 1, tables)),
  );
};
const now = (ages: number[], ahead: number) => suffixFreeingTimes(ages, TURN, CANDIDATE_TABLES, ahead + 1);

// The two ways agree (apps/server/src/modules/estimate/occupancy.test.ts checks it on random occupants).
for (const ages of [dinner, slow])
  for (const ahead of [0, 5, 30]) {
    const [a, b] = [before(ages, ahead), now(ages, ahead)];
    a.forEach((times, i) =>
      times?.forEach((t, j) => {
        if (Math.abs(b[i]![j]! - t) > 1e-9 * Math.max(1, t)) throw new Error(`candidate ${CANDIDATE_TABLES[i]}: ${b[i]![j]} against ${t}`);
      }),
    );
  }

console.log("Every candidate's departures for one row at a join (µs a row):");
const results: { name: string; before: number; now: number }[] = [];
for (const [label, ages] of [
  ['dinner', dinner],
  ['slow hour', slow],
] as const)
  for (const ahead of [0, 5, 30]) {
    const name = `${label}, ${ahead} parties before`;
    results.push({
      name,
      ...compareInTurns(
        name,
        () => before(ages, ahead),
        () => now(ages, ahead),
        { rounds: 5, n: 1_000 },
      ),
    });
  }
console.log(`\nFaster by ${results.map((r) => `${(r.before / r.now).toFixed(1)}x (${r.name})`).join(', ')}.`);
