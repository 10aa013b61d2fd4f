import type { ServerResponse } from 'node:http';
import { ErrorCode, type Language, isEntryId } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../plugins/bus.js';
import { type QueueDeps, findEntryByAnyId } from '../queue/index.js';
import { SseStream } from './sse-stream.js';
import { type StreamLimits, type StreamSlot, createStreamSlots } from './stream-slots.js';
import { type FanoutStrategy, productionFanout } from './fanout.js';
import { type DinerSubscriber, type HostSubscriber, NOTHING_SENT, VenueHub, viewKey } from './venue-hub.js';

/**
 * A console stream's right to the venue's queue, kept by the staff module for as long as the stream
 * lives (docs/security.md, "Staff sessions end everywhere"): asked before every write, and it tells
 * when the session ends, its role there changes or it expires.
 */
export interface StreamAccess {
  isAllowed(): boolean;
  onEnd(listener: () => void): void;
  release(): void;
}

export interface Realtime {
  /** Resolves the entry (own or share id) or throws 400/404; call before taking over the reply. */
  resolveDiner(waitlistId: string): Promise<{ entryId: string; venueId: string; isShared: boolean }>;
  /** Takes a stream slot for this address (and entry) or throws 429; call before taking over the reply. */
  admit(address: string, entryId?: string): StreamSlot;
  openDinerStream(
    raw: ServerResponse,
    target: { entryId: string; venueId: string; isShared: boolean },
    lang: Language,
    slot: StreamSlot,
  ): void;
  openHostStream(raw: ServerResponse, venueId: string, slot: StreamSlot, access: StreamAccess): void;
  /** Open streams in this instance (for tests and the bench). */
  connections(): number;
  /** Ends every stream, asking each to reconnect shortly (to another instance, behind a proxy). */
  closeAll(): void;
}

/** At most this long between two slices of heartbeats. */
const HEARTBEAT_TICK_MS = 100;

/**
 * Every stream gets a heartbeat once per interval, but not all at the same moment: the streams are
 * dealt round-robin into one slice per tick, and each tick writes one slice. Writing 20,000 heartbeats
 * in one loop held the event loop for about a second, and every change due then waited for it
 * (bench/capacity.bench.ts, docs/deploy.md "Capacity"); a tick now writes a two-hundredth of them.
 */
export function createHeartbeats(intervalMs: number, tickMs = HEARTBEAT_TICK_MS) {
  const sliceCount = Math.max(1, Math.round(intervalMs / tickMs));
  const slices = Array.from({ length: sliceCount }, () => new Set<{ heartbeat(): void }>());
  const sliceOf = new Map<{ heartbeat(): void }, Set<{ heartbeat(): void }>>();
  let dealt = 0;
  let cursor = 0;
  const timer = setInterval(() => {
    const slice = slices[cursor]!;
    cursor = (cursor + 1) % sliceCount;
    for (const stream of slice) stream.heartbeat();
  }, intervalMs / sliceCount);
  timer.unref();
  return {
    add(stream: { heartbeat(): void }): void {
      const slice = slices[dealt]!;
      dealt = (dealt + 1) % sliceCount;
      slice.add(stream);
      sliceOf.set(stream, slice);
    },
    delete(stream: { heartbeat(): void }): void {
      sliceOf.get(stream)?.delete(stream);
      sliceOf.delete(stream);
    },
    /** The largest number of heartbeats one tick writes (for tests). */
    largestSlice: (): number => Math.max(...slices.map((slice) => slice.size)),
    stop: (): void => clearInterval(timer),
  };
}

/** How soon a console whose session ended asks again (and learns it is signed out, or its new role). */
const SESSION_END_RETRY_MS = 500;

/**
 * How soon a handed-over stream comes back (docs/product.md §9): from this, over this spread. At
 * most a second, so a page is live again within 2 s through the proxy (docs/deploy.md).
 */
const HAND_OVER_MIN_MS = 100;
const HAND_OVER_SPREAD_MS = 900;
const handOverDelay = () => HAND_OVER_MIN_MS + Math.random() * HAND_OVER_SPREAD_MS;

/**
 * One hub per venue with subscribers in this instance, subscribed to the bus only while it has
 * subscribers. Heartbeats are spread over their interval (see `createHeartbeats`); streams end when
 * the app closes.
 */
export function createRealtime(
  deps: QueueDeps,
  bus: EventBus,
  options: {
    heartbeatMs: number;
    limits: StreamLimits;
    onError: (error: unknown) => void;
    /** How the fan-out writes (fanout.ts); none: the production way. bench/ injects the simpler ways. */
    fanout?: FanoutStrategy;
    /** Told when a stream opens (+1) or closes (-1): the open-streams gauge of plugins/metrics.ts. */
    onStreams?: (kind: 'diner' | 'host', change: 1 | -1) => void;
  },
): Realtime {
  const hubs = new Map<string, { hub: VenueHub; unsubscribe: () => void }>();
  const streams = new Set<SseStream>();
  const slots = createStreamSlots(options.limits);
  const heartbeats = createHeartbeats(options.heartbeatMs);
  /** Once the streams were handed over, one opened later (its request came in before) goes too. */
  let handedOver = false;

  const hubFor = (venueId: string): VenueHub => {
    const existing = hubs.get(venueId);
    if (existing) return existing.hub;
    const hub = new VenueHub(venueId, deps, options.onError, options.fanout ?? productionFanout);
    hubs.set(venueId, {
      hub,
      unsubscribe: bus.subscribe(
        venueId,
        (event) => hub.onEvent(event),
        () => hub.onLoss(),
      ),
    });
    return hub;
  };
  const releaseIfEmpty = (venueId: string) => {
    const entry = hubs.get(venueId);
    if (entry && entry.hub.size === 0) {
      entry.unsubscribe();
      hubs.delete(venueId);
    }
  };
  const track = (raw: ServerResponse, slot: StreamSlot, kind: 'diner' | 'host', onClose: () => void): SseStream => {
    const stream = new SseStream(raw, options.fanout ?? productionFanout);
    streams.add(stream);
    heartbeats.add(stream);
    options.onStreams?.(kind, 1);
    raw.on('close', () => {
      stream.closed = true;
      streams.delete(stream);
      heartbeats.delete(stream);
      options.onStreams?.(kind, -1);
      slot.release();
      onClose();
    });
    stream.open();
    return stream;
  };
  const handOverLate = (stream: SseStream): boolean => {
    if (handedOver) stream.handOver(handOverDelay());
    return handedOver;
  };

  return {
    async resolveDiner(waitlistId) {
      if (!isEntryId(waitlistId)) throw new AppError(ErrorCode.INVALID_WAITLISTID_FORMAT);
      const found = await findEntryByAnyId(deps.db.kysely, waitlistId);
      if (!found) throw new AppError(ErrorCode.FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION);
      return { entryId: found.entry.id, venueId: found.entry.venue_id, isShared: found.isShared };
    },

    admit: (address, entryId) => slots.take(address, entryId),

    openDinerStream(raw, target, lang, slot) {
      const hub = hubFor(target.venueId);
      const sub: DinerSubscriber = {
        stream: undefined as unknown as SseStream,
        entryId: target.entryId,
        isShared: target.isShared,
        lang,
        key: viewKey(target.isShared, lang),
        stamp: 0,
        ...NOTHING_SENT,
      };
      sub.stream = track(raw, slot, 'diner', () => {
        hub.removeDiner(sub);
        releaseIfEmpty(target.venueId);
      });
      if (handOverLate(sub.stream)) return;
      // Its snapshot (the first message, on every (re)connect) comes from the hub's next refresh.
      hub.addDiner(sub);
    },

    openHostStream(raw, venueId, slot, access) {
      const hub = hubFor(venueId);
      const sub: HostSubscriber = { stream: undefined as unknown as SseStream, stamp: 0, access };
      sub.stream = track(raw, slot, 'host', () => {
        access.release();
        hub.hosts.delete(sub);
        releaseIfEmpty(venueId);
      });
      if (handOverLate(sub.stream)) return;
      // An ended session, a changed role or an expiry closes the stream at once; the console comes
      // back soon, to a 401 (signed out) or to a stream under its new role.
      access.onEnd(() => sub.stream.handOver(SESSION_END_RETRY_MS));
      hub.addHost(sub);
    },

    connections: () => streams.size,

    closeAll() {
      handedOver = true;
      heartbeats.stop();
      // Spread over a second, so the instance that takes them over is not hit at once.
      for (const stream of streams) stream.handOver(handOverDelay());
      for (const { unsubscribe } of hubs.values()) unsubscribe();
      hubs.clear();
    },
  };
}
