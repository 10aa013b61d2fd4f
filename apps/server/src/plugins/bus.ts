import { EventEmitter } from 'node:events';
import type { VenueChannelEvent } from '@vez/contract';

/**
 * News that a staff member's sessions or role changed, for every instance's open console streams
 * (docs/security.md, "Staff sessions end everywhere"). Ids only: a staff id, a venue id, a
 * session's id (the SHA-256 the store keeps, never the cookie's token).
 */
export type StaffNews =
  /** Every session of the account ended, but `keep` (the one that changed its own password). */
  | { kind: 'sessions-ended'; staffId: string; keep?: string }
  /** One session ended (a logout). */
  | { kind: 'session-ended'; staffId: string; sessionId: string }
  /** The account's role at the venue changed, or it left the venue's team. */
  | { kind: 'role-changed'; staffId: string; venueId: string };

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 100;

/** The news a message from another instance carries, or undefined when it is not one. */
export function parseStaffNews(value: unknown): StaffNews | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isId(v.staffId)) return undefined;
  if (v.kind === 'sessions-ended' && (v.keep === undefined || isId(v.keep)))
    return v.keep === undefined ? { kind: v.kind, staffId: v.staffId } : { kind: v.kind, staffId: v.staffId, keep: v.keep };
  if (v.kind === 'session-ended' && isId(v.sessionId)) return { kind: v.kind, staffId: v.staffId, sessionId: v.sessionId };
  if (v.kind === 'role-changed' && isId(v.venueId)) return { kind: v.kind, staffId: v.staffId, venueId: v.venueId };
  return undefined;
}

/**
 * The venue channels and the staff news. Publishing never carries personal data (docs/product.md §3).
 * This in-process bus serves one instance; a Redis-backed bus with the same interface fans out
 * across instances.
 */
export interface EventBus {
  publish(event: VenueChannelEvent): void;
  /**
   * Calls `listener` for each event of the venue; returns the unsubscribe function. `onLoss`: told
   * when events of the venue may have been missed since the subscription was made (a bus that can
   * lose them: Redis), so that what was kept on hearing them is read again.
   */
  subscribe(venueId: string, listener: (event: VenueChannelEvent) => void, onLoss?: () => void): () => void;
  /** Tells every instance (this one included) that a staff member's sessions or role changed. */
  publishStaffNews(news: StaffNews): void;
  /** Calls `listener` for every staff news; returns the unsubscribe function. */
  subscribeStaffNews(listener: (news: StaffNews) => void): () => void;
  close(): Promise<void>;
  /** Resolves when the shared channel (Redis) answers; absent on a bus inside one process. */
  ping?(): Promise<void>;
  /**
   * Every event published reaches every subscriber: a bus inside one process. What is kept on
   * hearing a venue's events alone (the kept venue and estimate: queue-caches.ts) may then stand
   * longer without a read for an event lost on the way. Redis can lose one; it tells each loss it
   * sees (`onLoss`), and what it keeps still stands 30 s only: ten minutes measured no cheaper
   * (docs/decisions/054-losses-heard.md).
   */
  readonly lossless?: true;
}

export function createLocalBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const staff = new EventEmitter();
  staff.setMaxListeners(0);
  return {
    lossless: true,
    publish(event) {
      emitter.emit(event.venueId, event);
    },
    subscribe(venueId, listener) {
      emitter.on(venueId, listener);
      return () => emitter.off(venueId, listener);
    },
    publishStaffNews(news) {
      staff.emit('news', news);
    },
    subscribeStaffNews(listener) {
      staff.on('news', listener);
      return () => staff.off('news', listener);
    },
    async close() {
      emitter.removeAllListeners();
      staff.removeAllListeners();
    },
  };
}

/** A bus that forwards to `inner`, with `publish` replaced (wrappers that count or void caches). */
export function forwardingBus(inner: EventBus, publish: (event: VenueChannelEvent) => void): EventBus {
  return {
    publish,
    subscribe: (venueId, listener, onLoss) => inner.subscribe(venueId, listener, onLoss),
    publishStaffNews: (news) => inner.publishStaffNews(news),
    subscribeStaffNews: (listener) => inner.subscribeStaffNews(listener),
    close: () => inner.close(),
    ...(inner.ping ? { ping: () => inner.ping!() } : {}),
    ...(inner.lossless ? { lossless: true as const } : {}),
  };
}
