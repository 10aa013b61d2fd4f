// The venue mix of bench/capacity.bench.ts: how many parties wait at each venue, which of them
// keep their position page open, where the host consoles are, and which venue each change hits.
// Real queues are not alike: most venues have a handful of parties waiting, a few have a long
// line. Queue lengths follow a rank-size power law (Zipf): the venue of rank i has
// maxQueue / i^s parties, with the exponent s solved so that the venues add up to the parties asked for.
import { seededRandom } from '../../apps/server/src/lib/seeded-random.js';

export interface MixOptions {
  venues: number;
  /** Waiting parties with their page open, all venues together (one diner stream each). */
  streams: number;
  /** Host consoles open (the staff venue stream), all venues together. */
  hosts: number;
  /** Parties waiting at the busiest venue. */
  maxQueue: number;
  /** Parties at the head of every venue's queue without a page open: the first the host calls. */
  heads: number;
}

export interface VenueMix {
  /** Rank by size: 0 is the busiest. */
  rank: number;
  /** Diner streams (waiting parties with the page open). */
  streams: number;
  /** Host consoles open on this venue. */
  hosts: number;
}

export interface Mix {
  venues: VenueMix[];
  /** The Zipf exponent that spreads `streams` over the venues with `maxQueue` at the busiest. */
  exponent: number;
}

/** Sizes by rank for exponent s, at least 1 each, before rounding to the exact total. */
const shape = (venues: number, maxQueue: number, s: number): number[] =>
  Array.from({ length: venues }, (_, i) => Math.max(1, maxQueue / (i + 1) ** s));

/**
 * Integer queue lengths by rank summing exactly to `total` (largest remainders), the busiest at
 * `maxQueue` when the total allows it.
 */
export function queueLengths(venues: number, total: number, maxQueue: number): { lengths: number[]; exponent: number } {
  if (venues <= 0) throw new Error('no venues');
  if (total < venues) throw new Error(`${total} streams cannot give each of ${venues} venues one`);
  const sum = (s: number) => shape(venues, maxQueue, s).reduce((a, b) => a + b, 0);
  // A larger exponent gives a smaller total: bisect for the one that gives `total`.
  let lo = 0;
  let hi = 8;
  if (sum(lo) < total) {
    // Even a flat spread at maxQueue each is short: spread evenly instead.
    const each = total / venues;
    return {
      lengths: roundTo(
        Array.from({ length: venues }, () => each),
        total,
      ),
      exponent: 0,
    };
  }
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) > total) lo = mid;
    else hi = mid;
  }
  const exponent = (lo + hi) / 2;
  return { lengths: roundTo(shape(venues, maxQueue, exponent), total), exponent };
}

function roundTo(xs: number[], total: number): number[] {
  const floors = xs.map((x) => Math.max(1, Math.floor(x)));
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = xs.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) floors[order[k]!.i]! += 1;
  for (let i = floors.length - 1; left < 0 && i >= 0; i--)
    while (left < 0 && floors[i]! > 1) {
      floors[i]! -= 1;
      left += 1;
    }
  return floors;
}

/**
 * Host consoles go where the queues are: one on each of the busiest venues, a second on the
 * busiest tenth of those (a host stand and a manager's tablet), until `hosts` are placed.
 */
export function placeConsoles(venues: number, hosts: number): number[] {
  const out = Array.from({ length: venues }, () => 0);
  const doubled = Math.min(venues, Math.floor(hosts / 11));
  const single = Math.min(venues, hosts - doubled);
  for (let i = 0; i < single; i++) out[i] = 1;
  for (let i = 0, left = hosts - single; left > 0; i = (i + 1) % venues, left--) out[i]! += 1;
  return out;
}

export function makeMix(o: MixOptions): Mix {
  const { lengths, exponent } = queueLengths(o.venues, o.streams, o.maxQueue);
  const consoles = placeConsoles(o.venues, o.hosts);
  return { venues: lengths.map((streams, rank) => ({ rank, streams, hosts: consoles[rank]! })), exponent };
}

/** The benchmarks' seedable generator: the product's own (apps/server/src/lib/seeded-random.ts). */
export const rng = seededRandom;

/** Shuffles `list` in place (Fisher-Yates, from the end), each swap drawn from `random`. */
export function shuffleInPlace<T>(list: T[], random: () => number): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
}

/** Picks an index with probability proportional to its weight (cumulative weights, binary search). */
export function weightedPicker(weights: number[], random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** Which of `n` streams stay open when only `keep` fit: spread evenly, so every venue keeps its share. */
export function evenlyKept(n: number, keep: number): boolean[] {
  const kept = Array.from({ length: n }, () => true);
  const drop = n - keep;
  for (let i = 0; i < drop; i++) kept[Math.floor(((i + 0.5) * n) / drop)] = false;
  return kept;
}
