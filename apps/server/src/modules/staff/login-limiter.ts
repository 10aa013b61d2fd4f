/**
 * Login attempts per account and per client address, in fixed windows, in memory. Memory is per
 * instance: with N instances behind a balancer a guesser gets at most N times the budget, which
 * scrypt's cost and the per-account window still keep far from useful. Hits are counted before
 * the password is checked, so a blocked guesser also costs us no hashing.
 */
export interface LoginLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

interface Window {
  count: number;
  resetAt: number;
}

export interface LoginLimiter {
  /** Counts one attempt; returns seconds to wait when either budget is spent, else 0. */
  hit(account: string, address: string, now: number): number;
  /** A successful login clears the account's failures. */
  succeed(account: string): void;
}

export function createLoginLimiter(limits: LoginLimits): LoginLimiter {
  const windows = new Map<string, Window>();
  let nextSweep = 0;

  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + limits.windowMs;
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  };

  const count = (key: string, max: number, now: number): number => {
    let w = windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + limits.windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    return w.count > max ? Math.ceil((w.resetAt - now) / 1000) : 0;
  };

  return {
    hit(account, address, now) {
      sweep(now);
      const byAddress = count(`a:${address}`, limits.perAddress, now);
      const byAccount = count(`e:${account}`, limits.perAccount, now);
      return Math.max(byAddress, byAccount);
    },
    succeed(account) {
      windows.delete(`e:${account}`);
    },
  };
}
