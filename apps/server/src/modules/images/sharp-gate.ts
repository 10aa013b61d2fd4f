import { ErrorCode } from '@vez/contract';
import { AppError } from '../../lib/app-error.js';

/** The work did not finish within its time: the caller answers 4xx, the work's slot stays taken until it ends. */
export class ConvertTimeoutError extends Error {}

const busy = () =>
  new AppError(ErrorCode.RATE_LIMITED, 'The image host is busy. Please try again in a moment.', undefined, { 'retry-after': '5' });

/**
 * Image work (sharp, off the event loop on libuv's thread pool) runs at most `maxActive` at a time,
 * so conversions never take every pool thread from password hashing and file reads, and a request
 * never waits longer than its deadline (docs/security.md). A job past its deadline is answered at
 * once; it keeps its slot until sharp stops it (`.timeout()` or the SVG process's kill), so slow
 * images cannot pile up more native work than the slots allow.
 */
export function createSharpGate(maxActive: number, maxQueued: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  let idleWaiters: (() => void)[] = [];

  const release = () => {
    active -= 1;
    const next = queue.shift();
    if (next) next();
    else if (active === 0) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
    }
  };

  const acquire = (waitMs: number): Promise<void> => {
    if (active < maxActive) {
      active += 1;
      return Promise.resolve();
    }
    if (queue.length >= maxQueued) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        active += 1;
        resolve();
      };
      const timer = setTimeout(() => {
        const index = queue.indexOf(start);
        if (index !== -1) queue.splice(index, 1);
        reject(busy());
      }, waitMs);
      queue.push(start);
    });
  };

  return {
    /** Runs `work` in a slot; rejects with ConvertTimeoutError after `timeoutMs` of running, 429 when the queue is full or too slow. */
    async run<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
      await acquire(timeoutMs);
      const job = Promise.resolve().then(work);
      void job.then(release, release);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ConvertTimeoutError(`image work took longer than ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([job, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    get active() {
      return active;
    },
    /** Resolves once no work holds a slot (at once when none does). */
    idle(): Promise<void> {
      return active === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

/** One gate per process: libuv's pool (4 threads by default) is per process too. */
export const sharpGate = createSharpGate(2, 32);
