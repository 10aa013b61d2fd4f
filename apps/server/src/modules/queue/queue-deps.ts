import type { Db } from '../../db/connect.js';
import type { EntryRow } from '../../db/types.js';
import type { EventBus } from '../../plugins/bus.js';
import type { PaceCache } from './pace-cache.js';
import type { PositionCache } from './position-cache.js';

/** What the queue's services need: the store, the venue channels, a clock and the queue's caches. */
export interface QueueDeps {
  db: Db;
  /** Publishes venue events; the app's bus voids this instance's kept answers first (queue-caches.ts). */
  bus: EventBus;
  now: () => number;
  /** Work to do in the call's transaction (the SMS "your turn" is queued here). */
  onCalled?: (trx: Db['kysely'], entry: EntryRow) => Promise<void>;
  /** Serialised position answers kept until the venue changes. */
  positions?: PositionCache;
  /** Seating paces kept until the venue changes. */
  pace?: PaceCache;
}
