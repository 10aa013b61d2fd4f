import type { EventBus } from '../../plugins/bus.js';
import { forgetKeptVenue } from '../venues/venues.service.js';
import { type PaceCache, createPaceCache } from '../estimate/index.js';
import { listQueueOrder } from './entries.repository.js';
import { eventOf } from './entry-state.js';
import { type PositionCache, createPositionCache } from './position-cache.js';

export interface QueueCaches {
  positions: PositionCache;
  pace: PaceCache;
  /** The bus to publish through: it voids this instance's kept state of the venue before anyone is told. */
  bus: EventBus;
}

/**
 * The queue's kept state, one instance per app (no module-level state), voided one way: every
 * event of a venue, published here or heard from another instance through the bus, voids that
 * venue's kept positions, a seating or a venue-wide event its pace (any event when the venue has a
 * floor), and a venue-wide event its kept venue row (docs/decisions/017-queue-module.md). Venue writes
 * also drop the row at once (venues.repository.ts); each kept thing also expires after a moment,
 * for a change whose event this instance did not hear.
 */
const JOINED = eventOf('join');

/**
 * `tail: false` (a bench's server only): books without their forecast's tail, joins forecast the
 * queue up to them (docs/decisions/043-busy-venue-joins.md). `rebase: false` (a bench's server only):
 * an expired book is read again, never rebased (docs/decisions/047-rebased-books.md). `now`: the
 * clock of the expiries (a test's).
 */
export function createQueueCaches(bus: EventBus, options: { tail?: false; rebase?: false; now?: () => number } = {}): QueueCaches {
  // A book is rebased only while every event of its venue is heard here: the positions' watch.
  const pace = createPaceCache(listQueueOrder, options.now, {
    ...(options.tail === false ? { tail: false as const } : {}),
    ...(options.rebase === false ? { rebase: false as const } : {}),
    heard: {
      hears: (venueId) => positions.hears(venueId),
      watch: (venueId) => positions.watch(venueId),
      get standsMs() {
        return positions.standsMs;
      },
    },
  });
  const positions = createPositionCache(bus, options.now, (venueId, event) => {
    // The estimator learns only from seatings (estimator.ts): joins and calls leave its state
    // alone. A venue's floor forecasts the whole queue (floor.ts): any change of it voids that,
    // but a join this instance already added to the kept book (pace-cache.ts `addJoined`).
    const added = event?.type === JOINED && event.entryId !== undefined && pace.hasJoined(venueId, event.entryId);
    if (!added && (!event || !event.entryId || event.type === 'seat' || pace.hasFloor(venueId))) pace.forget(venueId);
    // A venue-wide event (settings, open, lock) changed the venue's row; an entry's did not. No
    // event: the venue is no longer heard (or something unknown changed), so its row goes too.
    if (!event || !event.entryId) forgetKeptVenue(venueId);
  });
  return { positions, pace, bus: positions.bus };
}
