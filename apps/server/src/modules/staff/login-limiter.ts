/**
 * Staff login throttling (decisions §3, docs/security.md), in memory, per instance.
 *
 * Wrong passwords are counted per account AND client address: a flood against a host's email from
 * one address slows that address down (a wait that doubles with each further failure, up to the
 * window), never the account itself, so the real host logs in at once from anywhere else. Every
 * attempt also counts against its address, whatever the account, so one address cannot sweep many
 * accounts. A waiting pair is refused before the password is checked: it costs us no hashing.
 * With N instances a guesser gets at most N times the budget.
 */
export interface LoginLimits {
  /** Failures per account and address in a window before each further one must wait. */
  freeFailures: number;
  /** Attempts per address in a window, whatever the account. */
  perAddress: number;
  windowMs: number;
}

interface Failures {
  count: number;
  /** No attempt from this pair before this time. */
  waitUntil: number;
  /** The count starts again after a window without failures. */
  resetAt: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export interface LoginLimiter {
  /** Counts one attempt; returns seconds to wait (answer 429 with Retry-After), else 0. */
  check(account: string, address: string, now: number): number;
  /** A wrong password: the pair's next attempt may have to wait. */
  fail(account: string, address: string, now: number): void;
  /** The right password clears this pair's failures. */
  succeed(account: string, address: string): void;
}

const pairKey = (account: string, address: string) => `${account}\n${address}`;

export function createLoginLimiter(limits: LoginLimits): LoginLimiter {
  const pairs = new Map<string, Failures>();
  const addresses = new Map<string, Window>();
  let nextSweep = 0;

  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + limits.windowMs;
    for (const [key, w] of addresses) if (w.resetAt <= now) addresses.delete(key);
    for (const [key, f] of pairs) if (f.resetAt <= now && f.waitUntil <= now) pairs.delete(key);
  };

  const secondsUntil = (time: number, now: number) => Math.max(1, Math.ceil((time - now) / 1000));

  return {
    check(account, address, now) {
      sweep(now);
      const pair = pairs.get(pairKey(account, address));
      if (pair && pair.waitUntil > now) return secondsUntil(pair.waitUntil, now);
      let w = addresses.get(address);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + limits.windowMs };
        addresses.set(address, w);
      }
      w.count += 1;
      return w.count > limits.perAddress ? secondsUntil(w.resetAt, now) : 0;
    },
    fail(account, address, now) {
      const key = pairKey(account, address);
      let pair = pairs.get(key);
      if (!pair || (pair.resetAt <= now && pair.waitUntil <= now)) pair = { count: 0, waitUntil: 0, resetAt: 0 };
      pair.count += 1;
      const over = pair.count - limits.freeFailures;
      // 1 s, 2 s, 4 s … capped at the window: slower and slower, never a lock-out of the account.
      if (over > 0) pair.waitUntil = now + Math.min(1000 * 2 ** Math.min(over - 1, 30), limits.windowMs);
      pair.resetAt = Math.max(now, pair.waitUntil) + limits.windowMs;
      pairs.set(key, pair);
    },
    succeed(account, address) {
      pairs.delete(pairKey(account, address));
    },
  };
}
