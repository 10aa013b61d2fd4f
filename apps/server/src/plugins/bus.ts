import { EventEmitter } from 'node:events';
import type { VenueChannelEvent } from '@vez/contract';

/**
 * The venue channels. Publishing never carries personal data (docs/product.md §3). This in-process bus
 * serves one instance; a Redis-backed bus with the same interface fans out across instances.
 */
export interface EventBus {
  publish(event: VenueChannelEvent): void;
  /** Calls `listener` for each event of the venue; returns the unsubscribe function. */
  subscribe(venueId: string, listener: (event: VenueChannelEvent) => void): () => void;
  close(): Promise<void>;
  /** Resolves when the shared channel (Redis) answers; absent on a bus inside one process. */
  ping?(): Promise<void>;
}

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit(event.venueId, event);
    },
    subscribe(venueId, listener) {
      emitter.on(venueId, listener);
      return () => emitter.off(venueId, listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
