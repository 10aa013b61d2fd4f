import { EventEmitter } from 'node:events';
import { VenueChannelEvent } from '@vez/contract';
import { Redis } from 'ioredis';
import { type EventBus, parseStaffNews } from './bus.js';

export interface RedisBusOptions {
  /** Channel name prefix; tests give each run its own so parallel suites do not hear each other. */
  prefix?: string;
  onError?: (error: unknown) => void;
}

/**
 * Venue channels shared by every instance through Redis pub/sub: one publishing connection and
 * ONE subscriber connection per instance, a Redis channel per venue with local subscribers
 * (subscribed on the first, unsubscribed after the last). An instance hears its own events back
 * through Redis too, so every instance sees one order of events per venue. Staff news (ended
 * sessions, changed roles: docs/security.md) has one channel of its own, `<prefix>staff-news`,
 * which an instance subscribes to while anything listens (the app does from its start).
 */
export interface RedisBus extends EventBus {
  /** Resolves once every subscription asked for so far is confirmed by Redis (tests, start-up). */
  ready(): Promise<void>;
}

export function createRedisBus(url: string, options: RedisBusOptions = {}): RedisBus {
  const prefix = options.prefix ?? 'vez:venue:';
  const onError = options.onError ?? (() => {});
  const pub = new Redis(url, { maxRetriesPerRequest: 3 });
  // The subscriber connection sends no handshake of its own (ready check, client info): ioredis 5
  // could send them after a SUBSCRIBE queued while connecting, and the refused command lost that
  // subscription without a word (redis/ioredis#2037; fixed in ioredis 6). The instance's first
  // subscriptions are made exactly then, at start.
  const sub = new Redis(url, { enableReadyCheck: false, disableClientInfo: true });
  // Without listeners ioredis errors would crash the process; the clients reconnect by themselves.
  pub.on('error', onError);
  sub.on('error', onError);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let pending: Promise<unknown> = Promise.resolve();
  // Venue ids are 24 hex characters: this name is never a venue's channel.
  const staffChannel = `${prefix}staff-news`;

  sub.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(prefix)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (channel === staffChannel) {
      const news = parseStaffNews(parsed);
      if (news) local.emit(staffChannel, news);
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
    publishStaffNews(news) {
      pub.publish(staffChannel, JSON.stringify(news)).catch(onError);
    },
    subscribeStaffNews(listener) {
      if (local.listenerCount(staffChannel) === 0) pending = Promise.all([pending, sub.subscribe(staffChannel).catch(onError)]);
      local.on(staffChannel, listener);
      return () => {
        local.off(staffChannel, listener);
        if (local.listenerCount(staffChannel) === 0) sub.unsubscribe(staffChannel).catch(onError);
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
