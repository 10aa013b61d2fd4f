import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

/**
 * @fastify/rate-limit's store, on the app's clock: every request-rate limit of the server counts
 * here (docs/decisions/019-validation-guards-sessions-limits.md). The plugin's own memory store
 * reads Date.now(); this one reads the clock the app was built with, so a limit's window, a
 * login's doubling wait and the Retry-After they answer follow the same time as everything else
 * (and tests move it instead of sleeping). In memory, per instance, like the plugin's own store.
 *
 * Each limit (a route's config, an `extraRateLimit`, the login's failures) gets its own child:
 * keys never collide between limits. A child keeps at most `capacity` keys, the least recently
 * counted going first, so a flood of addresses cannot grow the memory without bound.
 */

interface Count {
  current: number;
  /** The window ends here: the count starts again after it. */
  resetAt: number;
}

export interface RateCount {
  current: number;
  /** Milliseconds left in the window (0 when nothing is counted). */
  ttl: number;
}

export interface StoreOptions {
  /** Each hit past `max` starts the window again: a client who keeps trying keeps waiting. */
  continueExceeding?: boolean;
  /** Each hit past `max` doubles the window (the plugin's option of the same name). */
  exponentialBackoff?: boolean;
  capacity?: number;
}

const DEFAULT_CAPACITY = 50_000;

export class ClockedRateLimitStore implements FastifyRateLimitStore {
  private readonly counts = new Map<string, Count>();

  constructor(
    private readonly now: () => number,
    private readonly options: StoreOptions = {},
  ) {}

  /** Counts one hit; a key unseen or past its window starts a new window of `timeWindow` ms. */
  hit(key: string, timeWindow: number, max: number): RateCount {
    const now = this.now();
    let count = this.counts.get(key);
    if (!count || count.resetAt <= now) count = { current: 0, resetAt: now + timeWindow };
    count.current += 1;
    if (count.current > max && this.options.continueExceeding) count.resetAt = now + timeWindow;
    else if (count.current > max && this.options.exponentialBackoff) {
      count.resetAt = now + Math.min(timeWindow * 2 ** (count.current - max - 1), Number.MAX_SAFE_INTEGER);
    }
    // Re-inserted: the map's order is the order of last use.
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > (this.options.capacity ?? DEFAULT_CAPACITY)) this.counts.delete(this.counts.keys().next().value as string);
    return { current: count.current, ttl: count.resetAt - now };
  }

  /** The count of a key without counting a hit. */
  peek(key: string): RateCount {
    const now = this.now();
    const count = this.counts.get(key);
    if (!count || count.resetAt <= now) return { current: 0, ttl: 0 };
    return { current: count.current, ttl: count.resetAt - now };
  }

  /** Forgets a key (a login that succeeded forgets its failures). */
  reset(key: string): void {
    this.counts.delete(key);
  }

  incr(key: string, callback: (error: Error | null, result?: RateCount) => void, timeWindow: number, max: number): void {
    callback(null, this.hit(key, timeWindow, max));
  }

  /** The plugin's `{ increment: false }` check. */
  read(key: string, callback: (error: Error | null, result?: RateCount) => void): void {
    callback(null, this.peek(key));
  }

  /** A store of its own for one limit; `routeOptions` are the limit's options (the plugin's or ours). */
  child(routeOptions: object): ClockedRateLimitStore {
    const { continueExceeding, exponentialBackoff } = routeOptions as StoreOptions;
    return new ClockedRateLimitStore(this.now, {
      continueExceeding: continueExceeding === true,
      exponentialBackoff: exponentialBackoff === true,
      capacity: this.options.capacity,
    });
  }
}

/**
 * The plugin's `store` option: it constructs the store itself, so this hands it the root made
 * with the app's clock (a constructor that returns an object yields that object).
 */
export function asStoreOption(root: ClockedRateLimitStore): FastifyRateLimitStoreCtor {
  return function RateLimitStore() {
    return root;
  } as unknown as FastifyRateLimitStoreCtor;
}
