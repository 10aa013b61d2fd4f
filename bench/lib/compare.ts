// An optimisation against its simpler way, measured in alternating rounds of the same run
// (docs/decisions/018-optimisations-that-pay.md): does it win by more than run-to-run noise?
import { round } from './report.js';

export interface Comparison {
  /** What is compared, e.g. "templates vs JSON.stringify per diner". */
  name: string;
  /** The figure compared, e.g. "fan-out p99 ms". */
  figure: string;
  optimised: number[];
  simpler: number[];
  /** Median of each side's rounds. */
  optimisedMedian: number;
  simplerMedian: number;
  /** Per round, how many times better the optimised way did (> 1: it won that round). */
  ratios: number[];
  /** The median of those ratios. */
  gain: number;
  /**
   * Run-to-run noise of the gain: half the spread of the per-round ratios once the highest and
   * the lowest are set aside (with 5 rounds or more), so one disturbed round does not set it.
   */
  noise: number;
  /** Each side's own spread across rounds (half the range over the median), for the record. */
  optimisedSpread: number;
  simplerSpread: number;
  verdict: 'wins' | 'within noise' | 'loses';
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const spread = (xs: readonly number[]): number => (Math.max(...xs) - Math.min(...xs)) / 2 / median(xs);

/**
 * Paired rounds: optimised[i] and simpler[i] ran in the same round, one after the other.
 * `better: 'lower'` for times and CPU, `'higher'` for throughput.
 */
export function compare(name: string, figure: string, optimised: number[], simpler: number[], better: 'lower' | 'higher'): Comparison {
  const n = Math.min(optimised.length, simpler.length);
  const ratios = Array.from({ length: n }, (_, i) => (better === 'lower' ? simpler[i]! / optimised[i]! : optimised[i]! / simpler[i]!));
  const sorted = [...ratios].sort((a, b) => a - b);
  const trimmed = sorted.length >= 5 ? sorted.slice(1, -1) : sorted;
  const noise = (trimmed.at(-1)! - trimmed[0]!) / 2;
  const gain = median(ratios);
  return {
    name,
    figure,
    optimised,
    simpler,
    optimisedMedian: round(median(optimised), 1),
    simplerMedian: round(median(simpler), 1),
    ratios: ratios.map((r) => round(r, 3)),
    gain: round(gain, 3),
    noise: round(noise, 3),
    optimisedSpread: round(spread(optimised), 3),
    simplerSpread: round(spread(simpler), 3),
    verdict: gain - 1 > noise ? 'wins' : 1 - gain > noise ? 'loses' : 'within noise',
  };
}

/** A Markdown table of comparisons. */
export function comparisonTable(rows: Comparison[]): string {
  const pct = (x: number) => `${round(x * 100, 1)}%`;
  return [
    '| Optimisation vs simpler way | figure | optimised (median) | simpler (median) | gain (median of per-round ratios) | per-round ratios | noise (±) | spread of each side | verdict |',
    '|---|---|---:|---:|---:|---|---:|---|---|',
    ...rows.map(
      (c) =>
        `| ${c.name} | ${c.figure} | ${c.optimisedMedian} | ${c.simplerMedian} | ${c.gain}× | ${c.ratios.join(', ')} | ${pct(c.noise)} | ${pct(c.optimisedSpread)} / ${pct(c.simplerSpread)} | ${c.verdict} |`,
    ),
  ].join('\n');
}
