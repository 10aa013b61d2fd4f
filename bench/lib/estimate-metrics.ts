// How bench/estimate.bench.ts scores quotes (bench/README.md): errors, strict coverage, the interval
// score, and 95 % confidence intervals by resampling simulated days.
import { rng } from './restaurant-sim.js';

/** A quote as the page shows it: whole minutes, the range's ends included. */
export interface Quote {
  time: number;
  low?: number;
  high?: number;
}

/** One quote of every estimator for one party at one moment, and the wait that followed. */
export interface Scored<Name extends string> {
  /** The wait from the quote's moment to the party's true seat, minutes. */
  actual: number;
  /** The simulated day (the bootstrap's unit). */
  day: number;
  quotes: Partial<Record<Name, Quote>>;
}

/** The range is a central 80 % interval (decisions.md §12: about 80 % inside): α of the interval score. */
export const INTERVAL_ALPHA = 0.2;
/** Resamples of the days for each confidence interval (1000: the percentiles settle to about ±0.01). */
export const BOOTSTRAP_RESAMPLES = Number(process.env.BENCH_ESTIMATE_RESAMPLES ?? 1000);
/** The bootstrap's own seed: the same intervals for the same scored parties. */
const BOOTSTRAP_SEED = 20_260_104;

export interface Figures {
  parties: number;
  meanAbsError: number;
  p90AbsError: number;
  /** Actual minus quoted: positive when waits ran longer than quoted. */
  bias: number;
  /** Strict: seated at or after the bottom and at or before the top (null without ranges). */
  coverage: number | null;
  pastTop: number | null;
  belowBottom: number | null;
  /** Gneiting and Raftery's interval score of the central (1 − α) range, minutes: width plus 2/α × each miss. */
  intervalScore: number | null;
  meanWidth: number | null;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function hasRange(q: Quote): q is Required<Quote> {
  return q.low !== undefined && q.high !== undefined;
}

/** The interval score of one range (Gneiting & Raftery 2007, eq. 43). */
export function intervalScore(low: number, high: number, y: number, alpha = INTERVAL_ALPHA): number {
  return high - low + (2 / alpha) * Math.max(0, low - y) + (2 / alpha) * Math.max(0, y - high);
}

export function figuresOf<Name extends string>(scored: Scored<Name>[], name: Name): Figures {
  const rows = scored.filter((s) => s.quotes[name]);
  const errors = rows.map((s) => s.actual - s.quotes[name]!.time);
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  const ranged = rows.flatMap((s) => {
    const q = s.quotes[name]!;
    return hasRange(q) ? [{ y: s.actual, low: q.low, high: q.high }] : [];
  });
  const share = (f: (r: (typeof ranged)[number]) => boolean) => (ranged.length ? ranged.filter(f).length / ranged.length : null);
  return {
    parties: rows.length,
    meanAbsError: mean(abs),
    p90AbsError: abs[Math.min(abs.length - 1, Math.floor(0.9 * abs.length))] ?? 0,
    bias: mean(errors),
    coverage: share((r) => r.y >= r.low && r.y <= r.high),
    pastTop: share((r) => r.y > r.high),
    belowBottom: share((r) => r.y < r.low),
    intervalScore: ranged.length ? mean(ranged.map((r) => intervalScore(r.low, r.high, r.y))) : null,
    meanWidth: ranged.length ? mean(ranged.map((r) => r.high - r.low)) : null,
  };
}

export interface Interval {
  low: number;
  high: number;
}

/** Per day: the sums a ratio of mean errors and a coverage need, so that a resample only adds them up. */
interface DaySums {
  abs: number;
  absReference: number;
  n: number;
  ranged: number;
  covered: number;
}

/**
 * 95 % percentile intervals, resampling whole days with replacement (a day's parties share its
 * queue, so they are not independent): of `name`'s mean absolute error over `reference`'s, and of
 * `name`'s strict coverage.
 */
export function bootstrapByDay<Name extends string>(
  scored: Scored<Name>[],
  name: Name,
  reference: Name,
  resamples = BOOTSTRAP_RESAMPLES,
): { ratio: Interval; coverage: Interval | null } {
  const days = new Map<number, DaySums>();
  for (const s of scored) {
    const q = s.quotes[name];
    const ref = s.quotes[reference];
    if (!q || !ref) continue;
    const d = days.get(s.day) ?? { abs: 0, absReference: 0, n: 0, ranged: 0, covered: 0 };
    d.abs += Math.abs(s.actual - q.time);
    d.absReference += Math.abs(s.actual - ref.time);
    d.n += 1;
    if (hasRange(q)) {
      d.ranged += 1;
      if (s.actual >= q.low && s.actual <= q.high) d.covered += 1;
    }
    days.set(s.day, d);
  }
  const list = [...days.values()];
  const r = rng(BOOTSTRAP_SEED);
  const ratios: number[] = [];
  const coverages: number[] = [];
  for (let i = 0; i < resamples && list.length > 0; i++) {
    let abs = 0;
    let absReference = 0;
    let ranged = 0;
    let covered = 0;
    for (let j = 0; j < list.length; j++) {
      const d = list[Math.floor(r() * list.length)]!;
      abs += d.abs;
      absReference += d.absReference;
      ranged += d.ranged;
      covered += d.covered;
    }
    if (absReference > 0) ratios.push(abs / absReference);
    if (ranged > 0) coverages.push(covered / ranged);
  }
  return { ratio: percentileInterval(ratios), coverage: coverages.length ? percentileInterval(coverages) : null };
}

function percentileInterval(xs: number[]): Interval {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))] ?? NaN;
  return { low: at(0.025), high: at(0.975) };
}
