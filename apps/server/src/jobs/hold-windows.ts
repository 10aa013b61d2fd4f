import { HOLD_CHECK_MS, type QueueDeps, endExpiredHolds } from '../modules/queue/index.js';
import type { Job } from './scheduler.js';

/**
 * A called party whose hold window ran out is marked no-show where the venue asks for it
 * (docs/product.md §8; the rule is modules/queue/hold-window.ts); every instance looks, one of them ends each party.
 */
export function holdWindowsJob(deps: QueueDeps): Job {
  return { name: 'hold-windows', everyMs: HOLD_CHECK_MS, run: async () => void (await endExpiredHolds(deps, deps.now())) };
}
