// The quotes the estimator is compared with in bench/estimate.bench.ts, fed the same events. The old
// average (b) is kept in the tables for history only: no target is set against it.

/** (a) The host's rule of thumb: a fixed number of minutes per party in front, the party itself included. */
export const RULE_OF_THUMB_MINUTES = 5;
export const ruleOfThumb = (place: number): number => RULE_OF_THUMB_MINUTES * place;

/**
 * (b) The estimate before docs/decisions/022 (git history: apps/server/src/modules/queue/pace.ts):
 * an exponential average of the gaps between seatings, per venue and band, times the place.
 */
const ALPHA = 0.3;
const MAX_INTERVAL_MS = 90 * 60_000;
interface OldPace {
  ema: number;
  last: number;
  samples: number;
}

export class ExponentialAverage {
  private paces = new Map<number, OldPace>();

  seated(bands: number[], at: number): void {
    for (const band of bands) {
      const p = this.paces.get(band);
      if (!p) {
        this.paces.set(band, { ema: 0, last: at, samples: 0 });
        continue;
      }
      const interval = at - p.last;
      p.last = at;
      if (interval <= 0 || interval > MAX_INTERVAL_MS) continue;
      p.ema = p.samples === 0 ? interval : ALPHA * interval + (1 - ALPHA) * p.ema;
      p.samples += 1;
    }
  }

  /** Minutes for the party at `place` (band's pace in advanced mode while it has one); null without history. */
  quote(band: number | null, place: number, venuePlace: number): number | null {
    const own = band === null ? undefined : this.paces.get(band);
    const [pace, at] = own && own.samples > 0 ? [own, place] : [this.paces.get(-1), venuePlace];
    if (!pace || pace.samples === 0) return null;
    return Math.max(1, Math.round((pace.ema * at) / 60_000));
  }
}

/** Seatings a band needs before its own line speaks (three coefficients; a few dozen points). */
const MIN_FIT = 30;
/** Residuals kept per line for the range: about two busy evenings. */
const RESIDUALS_KEPT = 200;
/** A ridge that keeps the solve defined while the counts barely vary (minutes², negligible once fitted). */
const RIDGE = 1e-3;
/** The range's quantiles: a central 80 % interval, as the product's. */
const RANGE_QUANTILES = [0.1, 0.9] as const;

export interface Counts {
  ahead: number;
  called: number;
}

interface Line {
  /** XᵀX (3×3, row-major) and Xᵀy of the seatings so far. */
  xx: number[];
  xy: number[];
  n: number;
  residuals: number[];
}

const VENUE = -1;

/**
 * (c) The simple baseline the estimator must beat (/work/shared/spec/decisions.md §12): a least-squares
 * line `wait = a + b × parties waiting ahead + c × parties called`, per band once the band has seen
 * `MIN_FIT` seatings (the venue's before), fitted online on the venue's own past seatings only. Its
 * range: the 10th and 90th percentiles of its own last residuals, added to the line (split-conformal).
 */
export class CountRegression {
  private lines = new Map<number, Line>();

  private lineFor(band: number): Line | null {
    const own = this.lines.get(band);
    if (own && own.n >= MIN_FIT) return own;
    const venue = this.lines.get(VENUE);
    return venue && venue.n >= MIN_FIT ? venue : null;
  }

  /** The line's wait for these counts (minutes), or null before it has data. */
  predict(band: number, counts: Counts): number | null {
    const line = this.lineFor(band);
    if (!line) return null;
    const beta = solve3(
      line.xx.map((v, i) => (i % 4 === 0 ? v + RIDGE : v)),
      line.xy,
    );
    return beta ? Math.max(0, beta[0]! + beta[1]! * counts.ahead + beta[2]! * counts.called) : null;
  }

  quote(band: number, counts: Counts): { time: number; low: number; high: number } | null {
    const line = this.lineFor(band);
    const time = this.predict(band, counts);
    if (!line || time === null) return null;
    const sorted = [...line.residuals].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const low = Math.max(0, Math.floor(time + at(RANGE_QUANTILES[0])));
    const high = Math.max(low + 1, Math.ceil(time + at(RANGE_QUANTILES[1])));
    return { time: Math.max(1, Math.round(time)), low, high };
  }

  /** A seated party: its counts at join, its wait as the venue recorded it, and the line's forecast at join. */
  seated(band: number, counts: Counts, wait: number, forecast: number | null): void {
    for (const key of [VENUE, band]) {
      const line = this.lines.get(key) ?? { xx: Array(9).fill(0) as number[], xy: [0, 0, 0], n: 0, residuals: [] };
      const x = [1, counts.ahead, counts.called];
      for (let i = 0; i < 3; i++) {
        line.xy[i]! += x[i]! * wait;
        for (let j = 0; j < 3; j++) line.xx[i * 3 + j]! += x[i]! * x[j]!;
      }
      line.n += 1;
      if (forecast !== null) {
        line.residuals.push(wait - forecast);
        if (line.residuals.length > RESIDUALS_KEPT) line.residuals.shift();
      }
      this.lines.set(key, line);
    }
  }
}

/** Solves a 3×3 system by Cramer's rule; null when singular. */
function solve3(m: number[], v: number[]): number[] | null {
  const det = (a: number[]) =>
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) - a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) + a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const d = det(m);
  if (Math.abs(d) < 1e-12) return null;
  return [0, 1, 2].map((c) => det(m.map((x, i) => (i % 3 === c ? v[Math.floor(i / 3)]! : x))) / d);
}
