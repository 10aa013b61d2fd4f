import type { ClockedRateLimitStore } from '../../plugins/rate-limit-store.js';

/**
 * Staff login throttling (docs/product.md §3, docs/security.md) on the rate-limit store
 * (plugins/rate-limit-store.ts), per instance. Attempts per client address, whatever the account,
 * are the login route's own rate limit (host.routes.ts); this is the other half.
 *
 * Wrong passwords are counted per account AND client address: a flood against a host's email from
 * one address slows that address down (a wait that doubles with each further failure, up to the
 * window), never the account itself, so the real host logs in at once from anywhere else. A
 * waiting pair is refused before the password is checked: it costs us no hashing. With N instances
 * a guesser gets at most N times the budget.
 */
export interface LoginLimits {
  /** Failures per account and address before each further one must wait. */
  freeFailures: number;
  windowMs: number;
}

export interface LoginLimiter {
  /** Seconds this account and address must still wait (answer 429 with Retry-After), else 0. */
  check(account: string, address: string): number;
  /** A wrong password: the pair's next attempt may have to wait. */
  fail(account: string, address: string): void;
  /** The right password clears this pair's failures. */
  succeed(account: string, address: string): void;
}

const pairKey = (account: string, address: string) => `${account}\n${address}`;

export function createLoginLimiter(store: ClockedRateLimitStore, limits: LoginLimits): LoginLimiter {
  // Both restart their window at each failure (max 0): failures are forgotten after two windows
  // without one (at least a window after the longest wait ends), a wait runs from the failure.
  const failures = store.child({ continueExceeding: true });
  const waits = store.child({ continueExceeding: true });

  return {
    check(account, address) {
      const wait = waits.peek(pairKey(account, address));
      return wait.current > 0 ? Math.max(1, Math.ceil(wait.ttl / 1000)) : 0;
    },
    fail(account, address) {
      const key = pairKey(account, address);
      const over = failures.hit(key, 2 * limits.windowMs, 0).current - limits.freeFailures;
      // 1 s, 2 s, 4 s … capped at the window: slower and slower, never a lock-out of the account.
      if (over > 0) waits.hit(key, Math.min(1000 * 2 ** Math.min(over - 1, 30), limits.windowMs), 0);
    },
    succeed(account, address) {
      failures.reset(pairKey(account, address));
      waits.reset(pairKey(account, address));
    },
  };
}
