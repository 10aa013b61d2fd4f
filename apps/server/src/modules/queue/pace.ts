import type { PaceRow } from '../../db/types.js';

/** Band key for the whole venue (basic mode). */
export const VENUE_WIDE_BAND = -1;
/** Weight of the newest interval between two seatings. */
const ALPHA = 0.3;
/** A longer gap (a quiet afternoon, the night) says nothing about the current pace. */
const MAX_INTERVAL_MS = 90 * 60_000;

/**
 * The next pace after a party is seated: an exponential moving average of the interval between
 * seatings. The first seating only starts the clock.
 */
export function nextPace(previous: PaceRow | undefined, venueId: string, band: number, seatedAt: number): PaceRow {
  if (!previous) return { venue_id: venueId, band, ema_ms: 0, last_seated_at: seatedAt, samples: 0 };
  const interval = seatedAt - previous.last_seated_at;
  if (interval <= 0 || interval > MAX_INTERVAL_MS) return { ...previous, last_seated_at: seatedAt };
  const ema = previous.samples === 0 ? interval : ALPHA * interval + (1 - ALPHA) * previous.ema_ms;
  return { ...previous, ema_ms: ema, last_seated_at: seatedAt, samples: previous.samples + 1 };
}

/** Minutes until the party at `place` (1 = next) is likely seated; null without history. */
export function estimateMinutes(pace: PaceRow | undefined, place: number): number | null {
  if (!pace || pace.samples === 0 || place <= 0) return null;
  return Math.max(1, Math.round((pace.ema_ms * place) / 60_000));
}
