// The quotes the estimator is compared with in bench/estimate.bench.ts, fed the same events.

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
