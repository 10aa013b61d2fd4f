import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { VenueChannelEvent } from '@vez/contract';
import { Redis } from 'ioredis';
import { type EventBus, parseStaffNews } from './bus.js';

export interface RedisBusOptions {
  /** Channel name prefix; tests give each run its own so parallel suites do not hear each other. */
  prefix?: string;
  onError?: (error: unknown) => void;
  /**
   * How often this instance tells the others it is alive (HEARTBEAT_MS); one silent for three of
   * these is taken for gone, with whatever it published last (tests shorten it).
   */
  heartbeatMs?: number;
}

/** Two seconds: an instance that dies between a commit and its publish is noticed within six. */
const HEARTBEAT_MS = 2_000;
/** Heartbeats missed before an instance is taken for gone. */
const SILENT_BEATS = 3;

/** What instances tell each other on the bus's own channel (`<prefix>bus`). */
type BusNews = { kind: 'alive' | 'bye' | 'lost'; id: string };

/**
 * Venue channels shared by every instance through Redis pub/sub: one publishing connection and
 * ONE subscriber connection per instance, a Redis channel per venue with local subscribers
 * (subscribed on the first, unsubscribed after the last). An instance hears its own events back
 * through Redis too, so every instance sees one order of events per venue. Staff news (ended
 * sessions, changed roles: docs/security.md) has one channel of its own, `<prefix>staff-news`,
 * which an instance subscribes to while anything listens (the app does from its start).
 *
 * Redis pub/sub delivers at most once: a message published while a subscriber's connection is
 * down, before its SUBSCRIBE is answered, or never sent (a publish that failed, an instance that
 * died between a commit and its publish) reaches nobody. Each of these is noticed and told to the
 * venue's `onLoss` listeners (docs/decisions/054-losses-heard.md):
 * - a venue's SUBSCRIBE answered: that venue (events before it were not heard);
 * - the subscriber connection closed, and again once it is back and subscribed: every venue;
 * - an instance's publish failed: it says so on `<prefix>bus` once it can (`lost`): every venue;
 * - an instance silent on `<prefix>bus` for SILENT_BEATS heartbeats (one that ends says `bye`):
 *   every venue.
 */
export interface RedisBus extends EventBus {
  /** Resolves once every subscription asked for so far is confirmed by Redis (tests, start-up). */
  ready(): Promise<void>;
}

export function createRedisBus(url: string, options: RedisBusOptions = {}): RedisBus {
  const prefix = options.prefix ?? 'vez:venue:';
  const onError = options.onError ?? (() => {});
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const pub = new Redis(url, { maxRetriesPerRequest: 3 });
  // The subscriber connection sends no handshake of its own (ready check, client info): ioredis 5
  // could send them after a SUBSCRIBE queued while connecting, and the refused command lost that
  // subscription without a word (redis/ioredis#2037; fixed in ioredis 6). The instance's first
  // subscriptions are made exactly then, at start. It subscribes again itself after a reconnect
  // (not ioredis's autoResubscribe), so it knows when every channel is heard again.
  const sub = new Redis(url, { enableReadyCheck: false, disableClientInfo: true, autoResubscribe: false });
  // Without listeners ioredis errors would crash the process; the clients reconnect by themselves.
  pub.on('error', onError);
  sub.on('error', onError);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  /** Each subscribed venue's loss listeners (a venue is here while it has any listener). */
  const losses = new Map<string, Set<{ onLoss: () => void }>>();
  let pending: Promise<void> = Promise.resolve();
  // Venue ids are 24 hex characters: these names are never a venue's channel.
  const staffChannel = `${prefix}staff-news`;
  const busChannel = `${prefix}bus`;
  const id = randomUUID();
  /** The other instances heard on `busChannel`, and when. */
  const peers = new Map<string, number>();
  let closed = false;

  const lost = (venueId: string) => {
    for (const listener of losses.get(venueId) ?? []) listener.onLoss();
  };
  const lostAll = () => {
    for (const venueId of losses.keys()) lost(venueId);
  };
  const subscribeChannels = (channels: string[], then: () => void) => {
    // Settled to nothing: a chain of Promise.all values would nest every answer so far, and grow
    // with each venue subscribed for as long as the instance runs.
    pending = Promise.all([pending, sub.subscribe(...channels).then(then, onError)]).then(() => undefined);
  };

  const hearBusNews = (news: BusNews) => {
    if (news.id === id) return;
    if (news.kind === 'alive') peers.set(news.id, Date.now());
    else peers.delete(news.id);
    if (news.kind === 'lost') lostAll();
  };
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
    if (channel === busChannel) {
      const news = parseBusNews(parsed);
      if (news) hearBusNews(news);
      return;
    }
    const event = VenueChannelEvent.safeParse(parsed);
    if (event.success && event.data.venueId === channel.slice(prefix.length)) local.emit(event.data.venueId, event.data);
  });

  // A closed connection heard nothing since: every venue now, and again once subscribed anew (what
  // was kept while it was down was kept unheard). Peers' silence meanwhile was ours, not theirs.
  let down = false;
  sub.on('close', () => {
    if (down || closed) return;
    down = true;
    lostAll();
  });
  sub.on('ready', () => {
    if (!down || closed) return;
    down = false;
    const channels = [busChannel, ...[...losses.keys()].map((venueId) => prefix + venueId)];
    if (local.listenerCount(staffChannel) > 0) channels.push(staffChannel);
    subscribeChannels(channels, () => {
      peers.clear();
      lostAll();
    });
  });
  subscribeChannels([busChannel], () => {});

  // A failed publish reached nobody: say so on the bus once the connection takes it.
  let lossUntold = false;
  const tellLoss = () => {
    lossUntold = false;
    pub.publish(busChannel, JSON.stringify({ kind: 'lost', id } satisfies BusNews)).catch((error: unknown) => {
      onError(error);
      lossUntold = true;
    });
  };
  pub.on('ready', () => {
    if (lossUntold) tellLoss();
  });
  const beat = () => {
    if (closed) return;
    pub.publish(busChannel, JSON.stringify({ kind: 'alive', id } satisfies BusNews)).catch(onError);
    const silentSince = Date.now() - SILENT_BEATS * heartbeatMs;
    let gone = false;
    for (const [peer, heardAt] of peers)
      if (heardAt < silentSince && !down) {
        peers.delete(peer);
        gone = true;
      }
    if (gone) lostAll();
  };
  beat();
  const heartbeat = setInterval(beat, heartbeatMs);
  heartbeat.unref();

  return {
    publish(event) {
      pub.publish(prefix + event.venueId, JSON.stringify(event)).catch((error: unknown) => {
        onError(error);
        tellLoss();
      });
    },
    subscribe(venueId, listener, onLoss) {
      let listeners = losses.get(venueId);
      if (!listeners) {
        losses.set(venueId, (listeners = new Set()));
        // Events published before Redis answered were not heard.
        subscribeChannels([prefix + venueId], () => lost(venueId));
      }
      const entry = onLoss ? { onLoss } : undefined;
      if (entry) listeners.add(entry);
      local.on(venueId, listener);
      return () => {
        local.off(venueId, listener);
        if (entry) listeners.delete(entry);
        if (local.listenerCount(venueId) === 0 && losses.get(venueId) === listeners) {
          losses.delete(venueId);
          sub.unsubscribe(prefix + venueId).catch(onError);
        }
      };
    },
    publishStaffNews(news) {
      pub.publish(staffChannel, JSON.stringify(news)).catch(onError);
    },
    subscribeStaffNews(listener) {
      if (local.listenerCount(staffChannel) === 0) subscribeChannels([staffChannel], () => {});
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
      closed = true;
      clearInterval(heartbeat);
      local.removeAllListeners();
      losses.clear();
      // The others need not take this instance's silence for a loss.
      await pub.publish(busChannel, JSON.stringify({ kind: 'bye', id } satisfies BusNews)).catch(() => {});
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

function parseBusNews(value: unknown): BusNews | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ((v.kind === 'alive' || v.kind === 'bye' || v.kind === 'lost') && typeof v.id === 'string' && v.id.length <= 100)
    return { kind: v.kind, id: v.id };
  return undefined;
}
