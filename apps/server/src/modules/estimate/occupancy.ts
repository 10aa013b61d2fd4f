/**
 * The occupancy forecast's arithmetic (estimator.ts, docs/decisions/022-wait-estimates.md): the
 * parties seated last are the tables' occupants; each leaves after a turn drawn from a log-normal
 * distribution, given that it has sat for its age already; the party with `n - 1` parties before it
 * gets the `n`-th table to free. Its expected time is the integral over time of P(fewer than `n`
 * occupants have left), the count of those gone being a sum of independent Bernoulli draws (a
 * Poisson-binomial, computed by the usual recursion). Pure functions, no state.
 */

/** The spread of turn times, σ of their logarithm: a prior (restaurants' turns vary by about this much). */
export const TURN_SIGMA = 0.4;
/** An occupant past this share of turns' tail (its age beyond about 2.5 medians) has left: the table is free. */
const GONE = 0.01;
/** The integral's step and horizon, minutes: beyond 5 hours every occupant has left. */
export const STEP = 2.5;
const HORIZON = 300;
export const STEPS = HORIZON / STEP;

/** The complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(a turn lasts longer than `minutes`), for turns log-normal around `median`. */
export function turnSurvival(minutes: number, median: number): number {
  if (minutes <= 0) return 1;
  return 0.5 * erfc(Math.log(minutes / median) / (TURN_SIGMA * Math.SQRT2));
}

/** The mean of a log-normal turn of this median. */
export const meanTurn = (median: number): number => median * Math.exp((TURN_SIGMA * TURN_SIGMA) / 2);

/**
 * An occupant of this age (minutes; `seen`, its turnSurvival) has left by the middle of step `k` of
 * the integral, turns log-normal around `median`: conditioned on still being there at its age; one
 * seen past any likely turn is gone.
 */
export const departureChance = (age: number, seen: number, median: number, k: number): number =>
  seen < GONE ? 1 : Math.min(1, Math.max(0, 1 - turnSurvival(age + (k + 0.5) * STEP, median) / seen));

/** Expected minutes until the 1st, 2nd, ... `nMax`-th of these occupants (their ages, minutes) leaves; `nMax` at most their number. */
export const freeingTimes = (ages: readonly number[], median: number, nMax: number): number[] =>
  suffixFreeingTimes(ages, median, [ages.length], nMax)[0] ?? [];

/**
 * Expected minutes until the 1st, 2nd, ... departures of several suffixes of the same occupants,
 * from their ages (minutes) and the turn's median: for each of `sizes` (ascending, each once), the
 * last `size` occupants' first `min(nMax, size)` departures; null where there are fewer occupants
 * than the size. The count gone among the last `c` occupants is the count among the last `c - 1`
 * with one more draw, so one pass from the newest occupant back serves every suffix: the work of
 * the largest alone, not the sum of all (the estimator asks this of every candidate table count at
 * each join, occupancy-forecast.ts `occupancyInputs`; docs/decisions/071). Each chance
 * (`departureChance`) is worked out when the pass first needs it: none past the step where every
 * suffix's last departure is certain.
 */
export function suffixFreeingTimes(ages: readonly number[], median: number, sizes: readonly number[], nMax: number): (number[] | null)[] {
  const count = ages.length;
  const nOf = (size: number) => Math.max(0, Math.min(nMax, size));
  const out: (number[] | null)[] = sizes.map((size) => (size <= count ? new Array<number>(nOf(size)).fill(0) : null));
  // Each suffix's index in `out` and its own n; a suffix closes once its last departure is certain.
  const open = sizes.map((size, i) => ({ i, size, n: nOf(size) })).filter((s) => s.size <= count && s.n > 0);
  if (open.length === 0) return out;
  // dist[j]: P(exactly j gone) for j < n; dist[n]: P(n or more).
  const n = open[open.length - 1]!.n;
  const dist = new Float64Array(n + 1);
  // Newest occupant first, as the pass takes them.
  const newest = ages.slice().reverse();
  const seen = newest.map((age) => turnSurvival(age, median));
  for (let k = 0; k < STEPS && open.length > 0; k++) {
    dist.fill(0);
    dist[0] = 1;
    let next = 0;
    // Only as far back as the largest suffix still open.
    const deepest = open[open.length - 1]!.size;
    for (let c = 1; c <= deepest; c++) {
      const p = departureChance(newest[c - 1]!, seen[c - 1]!, median, k);
      // Of `c` occupants at most `c` are gone: the states above are still nothing.
      if (c >= n) dist[n] = dist[n]! + dist[n - 1]! * p;
      for (let j = Math.min(c, n - 1); j >= 1; j--) dist[j] = dist[j]! * (1 - p) + dist[j - 1]! * p;
      dist[0] = dist[0]! * (1 - p);
      while (next < open.length && open[next]!.size === c) {
        const suffix = open[next]!;
        const times = out[suffix.i]!;
        // P(its j-th departure is still to come) = P(fewer than j gone).
        let below = 0;
        for (let j = 0; j < suffix.n; j++) {
          below += dist[j]!;
          times[j] = times[j]! + STEP * below;
        }
        // All its `n` gone by now: the rest of its integral is nothing.
        if (below < 1e-6) open.splice(next, 1);
        else next++;
      }
    }
  }
  return out;
}

/**
 * When the table of a party with `before` parties before it frees, minutes from now: the
 * `before + 1`-th departure among the occupants; beyond them, a table frees once per cycle of all
 * of them (a turn plus the minutes from a free table to a seated party, `latency`).
 */
export function freeingTime(times: readonly number[], tables: number, before: number, median: number, latency: number): number {
  const rounds = Math.floor(before / tables);
  const within = before - rounds * tables;
  return times[within]! + rounds * (meanTurn(median) + latency);
}
