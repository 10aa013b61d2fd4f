import type { Db } from '../db/connect.js';
import { erasePersonalDataEndedBefore } from '../modules/waitlist/waitlist.repository.js';

/**
 * Erases the name, phone, email and note of entries that ended (seated, cancelled, removed) more
 * than `retentionHours` ago. Counts and times stay for the venue's figures.
 */
export function runRetention(db: Db, retentionHours: number, now = Date.now()): Promise<number> {
  return erasePersonalDataEndedBefore(db.kysely, now - retentionHours * 3_600_000, now);
}

/** Runs the retention job now and then every `intervalMinutes`; returns the stop function. */
export function scheduleRetention(
  db: Db,
  options: { retentionHours: number; intervalMinutes: number; onError: (error: unknown) => void; onErased?: (n: number) => void },
): () => void {
  const tick = () =>
    runRetention(db, options.retentionHours)
      .then((n) => n > 0 && options.onErased?.(n))
      .catch(options.onError);
  void tick();
  const timer = setInterval(tick, options.intervalMinutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
