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
const STEP = 2.5;
const HORIZON = 300;
const STEPS = HORIZON / STEP;

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
 * Each occupant's chance of having left by each step of the integral (its age in minutes), turns
 * log-normal around `median`: worked out once per quote and shared by every table count tried, whose
 * occupants are the last ones of the same list.
 */
export function departureChances(ages: readonly number[], median: number): Float64Array[] {
  return ages.map((age) => {
    const chances = new Float64Array(STEPS);
    const seen = turnSurvival(age, median);
    for (let k = 0; k < STEPS; k++) {
      // Conditioned on still being there at its age; one seen past any likely turn is gone.
      chances[k] = seen < GONE ? 1 : Math.min(1, Math.max(0, 1 - turnSurvival(age + (k + 0.5) * STEP, median) / seen));
    }
    return chances;
  });
}

/**
 * Expected minutes until the 1st, 2nd, ... `nMax`-th of these occupants leaves (each one's
 * departureChances). `nMax` at most the number of occupants.
 */
export function freeingTimes(chances: readonly Float64Array[], nMax: number): number[] {
  const n = Math.min(nMax, chances.length);
  const out = new Array<number>(n).fill(0);
  if (n <= 0) return out;
  // dist[j]: P(exactly j occupants gone) for j < n; dist[n]: P(n or more).
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
    // P(the j-th departure is still to come at t) = P(fewer than j gone).
    let below = 0;
    for (let j = 0; j < n; j++) {
      below += dist[j]!;
      out[j] = out[j]! + STEP * below;
    }
    if (below < 1e-6) break; // all `n` gone by now: the rest of the integral is nothing
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
