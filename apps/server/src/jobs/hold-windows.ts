import { type QueueDeps, endExpiredHolds } from '../modules/queue/index.js';
import type { Job } from './scheduler.js';

/** How often each instance looks for hold windows that ran out (docs/product.md §8). */
export const HOLD_CHECK_MS = 5_000;

/**
 * A called party whose hold window ran out is marked no-show where the venue asks for it
 * (docs/product.md §8); every instance looks, one of them ends each party.
 */
export function holdWindowsJob(deps: QueueDeps): Job {
  return { name: 'hold-windows', everyMs: HOLD_CHECK_MS, run: async () => void (await endExpiredHolds(deps, deps.now())) };
}
