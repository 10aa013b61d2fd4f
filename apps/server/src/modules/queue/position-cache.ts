import type { VenueChannelEvent } from '@vez/contract';
import { type EventBus, forwardingBus } from '../../plugins/bus.js';

/** How long a kept answer may be served without a change event (missed events, venue settings read on another instance). */
const TTL_MS = 1_000;
const MAX_ANSWERS = 20_000;
/**
 * Half a minute: an event Redis lost shows within it (docs/decisions/047-rebased-books.md), should
 * the bus not have told it (docs/decisions/054-losses-heard.md).
 */
const HEARD_MS = 30_000;
/**
 * One instance hears every event of its venues: nothing is lost on the way, and ten minutes only
 * bounds what a mistake could cost (docs/decisions/052-venues-kept-while-heard.md).
 */
const LOSSLESS_HEARD_MS = 10 * 60_000;
const MAX_VENUES = 5_000;

interface Kept {
  venueId: string;
  json: string;
  /** The clock when the read that built it started: a change of the venue after that voids it. */
  since: number;
  expires: number;
}

/**
 * Position answers kept serialised until the venue's queue changes. A position changes only when
 * something happens at its venue, and every such change publishes an event on the venue's channel
 * (docs/product.md §1): publishing here, or hearing it from another instance through the bus, voids every kept
 * answer of that venue at once. Diner pages read positions far more often than queues change, so
 * most reads need neither the store nor serialising.
 *
 * Voiding is a clock, not a sweep: each venue remembers the clock of its last change, and a kept
 * answer counts only when the read that built it started after that. A read racing a change can
 * never keep the older answer.
 */
export interface PositionCache {
  /** The clock to hand to `keep` later; take it before reading the store. */
  mark(): number;
  recall(key: string): string | undefined;
  keep(key: string, venueId: string, json: string, since: number): void;
  /** Something changed at the venue. */
  forgetVenue(venueId: string): void;
  /**
   * Hears the venue's events from now on, from other instances too, for the kept pace's books
   * (pace-cache.ts), until it stops hearing them (more venues watched than it keeps: then the venue
   * is forgotten as at a change). `hears`: it does now.
   */
  watch(venueId: string): void;
  hears(venueId: string): boolean;
  /**
   * How long what is kept on hearing a venue alone (its row, its estimate: queue-caches.ts) may
   * stand without a read: HEARD_MS when the bus can lose an event on the way (Redis), LOSSLESS_HEARD_MS
   * when it cannot (one instance, `EventBus.lossless`).
   */
  readonly standsMs: number;
  /** Everything may have changed (personal data erased by retention). */
  clear(): void;
  /** The bus to publish through, so the publishing instance voids its answers before it replies. */
  readonly bus: EventBus;
}

export function createPositionCache(
  bus: EventBus,
  now: () => number = () => performance.now(),
  /** Other kept state of a venue to void with its answers (the seating pace). */
  onForget: (venueId: string, event?: VenueChannelEvent) => void = () => {},
): PositionCache {
  let clock = 0;
  let clearedAt = 0;
  const answers = new Map<string, Kept>();
  const changedAt = new Map<string, number>();
  const watching = new Map<string, () => void>();

  const forgetVenue = (venueId: string, event?: VenueChannelEvent) => {
    changedAt.set(venueId, ++clock);
    onForget(venueId, event);
  };

  /** Events from other instances void this one's answers too (a local bus calls this on publish). */
  const watch = (venueId: string) => {
    if (watching.has(venueId)) return;
    if (watching.size >= MAX_VENUES) {
      const [oldest, unsubscribe] = watching.entries().next().value as [string, () => void];
      unsubscribe();
      watching.delete(oldest);
      forgetVenue(oldest); // no longer hears its changes
    }
    watching.set(
      venueId,
      bus.subscribe(
        venueId,
        (event) => {
          // A staff-only change (a delivery, messages read: docs/product.md §7) leaves every position answer as it was.
          if (!event.staffOnly) forgetVenue(venueId, event);
        },
        // Events the bus may have missed (bus-redis.ts): anything may have changed.
        () => forgetVenue(venueId),
      ),
    );
  };

  return {
    mark: () => clock,
    recall(key) {
      const kept = answers.get(key);
      if (!kept) return undefined;
      if (
        kept.since < clearedAt ||
        kept.since < (changedAt.get(kept.venueId) ?? 0) ||
        kept.expires <= now() ||
        !watching.has(kept.venueId)
      ) {
        answers.delete(key);
        return undefined;
      }
      return kept.json;
    },
    keep(key, venueId, json, since) {
      if (since < clearedAt || since < (changedAt.get(venueId) ?? 0)) return;
      watch(venueId);
      if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
      answers.set(key, { venueId, json, since, expires: now() + TTL_MS });
    },
    forgetVenue,
    watch,
    hears: (venueId) => watching.has(venueId),
    standsMs: bus.lossless ? LOSSLESS_HEARD_MS : HEARD_MS,
    clear() {
      clearedAt = ++clock;
      answers.clear();
    },
    bus: forwardingBus(bus, (event) => {
      if (!event.staffOnly) forgetVenue(event.venueId, event);
      bus.publish(event);
    }),
  };
}
