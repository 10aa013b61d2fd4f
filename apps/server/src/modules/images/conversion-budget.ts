import { ErrorCode } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';

/**
 * Image conversions per client address in fixed one-minute windows, in memory (each instance
 * converts with its own CPU). Only real conversions are counted: cached answers cost nothing.
 */
export function createConversionBudget(perMinute: number, windowMs = 60_000) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;
  return {
    /** Counts one conversion for `address`, or throws 429 with Retry-After when its minute is spent. */
    spend(address: string, now = Date.now()): void {
      if (now >= nextSweep) {
        nextSweep = now + windowMs;
        for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
      }
      let w = windows.get(address);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(address, w);
      }
      if (w.count >= perMinute) {
        const wait = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
        throw new AppError(ErrorCode.RATE_LIMITED, `Too many image conversions from this address. Retry in ${wait} s.`, undefined, {
          'retry-after': String(wait),
        });
      }
      w.count += 1;
    },
  };
}
