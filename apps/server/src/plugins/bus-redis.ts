import { EventEmitter } from 'node:events';
import { VenueChannelEvent } from '@vez/contract';
import { Redis } from 'ioredis';
import type { EventBus } from './bus.js';

export interface RedisBusOptions {
  /** Channel name prefix; tests give each run its own so parallel suites do not hear each other. */
  prefix?: string;
  onError?: (error: unknown) => void;
}

/**
 * Venue channels shared by every instance through Redis pub/sub: one publishing connection and
 * ONE subscriber connection per instance, a Redis channel per venue with local subscribers
 * (subscribed on the first, unsubscribed after the last). An instance hears its own events back
 * through Redis too, so every instance sees one order of events per venue.
 */
export interface RedisBus extends EventBus {
  /** Resolves once every subscription asked for so far is confirmed by Redis (tests, start-up). */
  ready(): Promise<void>;
}

export function createRedisBus(url: string, options: RedisBusOptions = {}): RedisBus {
  const prefix = options.prefix ?? 'vez:venue:';
  const onError = options.onError ?? (() => {});
  const pub = new Redis(url, { maxRetriesPerRequest: 3 });
  const sub = new Redis(url);
  // Without listeners ioredis errors would crash the process; the clients reconnect by themselves.
  pub.on('error', onError);
  sub.on('error', onError);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let pending: Promise<unknown> = Promise.resolve();

  sub.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const event = VenueChannelEvent.safeParse(parsed);
    if (event.success && event.data.venueId === channel.slice(prefix.length)) local.emit(event.data.venueId, event.data);
  });

  return {
    publish(event) {
      pub.publish(prefix + event.venueId, JSON.stringify(event)).catch(onError);
    },
    subscribe(venueId, listener) {
      if (local.listenerCount(venueId) === 0) pending = Promise.all([pending, sub.subscribe(prefix + venueId).catch(onError)]);
      local.on(venueId, listener);
      return () => {
        local.off(venueId, listener);
        if (local.listenerCount(venueId) === 0) sub.unsubscribe(prefix + venueId).catch(onError);
      };
    },
    async ready() {
      await pending;
    },
    async ping() {
      await pub.ping();
    },
    async close() {
      local.removeAllListeners();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
