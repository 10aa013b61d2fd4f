import { STEP, STEPS, departureChance, turnSurvival } from '../src/modules/estimate/occupancy.js';

/**
 * The integral of occupancy.ts worked out the plain way, one set of occupants at a time, every
 * chance first (the usual Poisson-binomial recursion), as the estimator did for each candidate
 * table count before `suffixFreeingTimes`: what each of its suffixes must equal
 * (estimate/occupancy.test.ts) and what it is timed against (bench/lib/occupancy-micro.ts).
 */
export function freeingTimesAlone(ages: readonly number[], median: number, nMax: number): number[] {
  return freeingTimesOfChances(chancesAlone(ages, median), nMax);
}

/** Each occupant's chance of having left by each step of the integral, all worked out first. */
export function chancesAlone(ages: readonly number[], median: number): Float64Array[] {
  return ages.map((age) => {
    const seen = turnSurvival(age, median);
    return Float64Array.from({ length: STEPS }, (_, k) => departureChance(age, seen, median, k));
  });
}

/** The expected minutes to the first `nMax` departures of these occupants (their `chancesAlone`). */
export function freeingTimesOfChances(chances: readonly Float64Array[], nMax: number): number[] {
  const n = Math.min(nMax, chances.length);
  const out = new Array<number>(n).fill(0);
  if (n <= 0) return out;
  // dist[j]: P(exactly j gone) for j < n; dist[n]: P(n or more).
  const dist = new Float64Array(n + 1);
  for (let k = 0; k < STEPS; k++) {
    dist.fill(0);
    dist[0] = 1;
    for (const occupant of chances) {
      const p = occupant[k]!;
      dist[n] = dist[n]! + dist[n - 1]! * p;
      for (let j = n - 1; j >= 1; j--) dist[j] = dist[j]! * (1 - p) + dist[j - 1]! * p;
      dist[0] = dist[0]! * (1 - p);
    }
    let below = 0;
    for (let j = 0; j < n; j++) {
      below += dist[j]!;
      out[j] = out[j]! + STEP * below;
    }
    if (below < 1e-6) break;
  }
  return out;
}
