import { describe, expect, it } from 'vitest';
import { ClockedRateLimitStore } from './rate-limit-store.js';

describe('the rate-limit store', () => {
  it("counts a window on the app's clock and starts again after it", () => {
    const clock = { now: 1_000_000 };
    const store = new ClockedRateLimitStore(() => clock.now).child({});
    expect(store.hit('a', 10_000, 2)).toEqual({ current: 1, ttl: 10_000 });
    clock.now += 4_000;
    expect(store.hit('a', 10_000, 2)).toEqual({ current: 2, ttl: 6_000 });
    expect(store.peek('a')).toEqual({ current: 2, ttl: 6_000 });
    clock.now += 6_000;
    expect(store.peek('a')).toEqual({ current: 0, ttl: 0 });
    expect(store.hit('a', 10_000, 2)).toEqual({ current: 1, ttl: 10_000 });
  });

  it('continueExceeding starts the window again at each hit past max; reset forgets a key', () => {
    const clock = { now: 0 };
    const store = new ClockedRateLimitStore(() => clock.now).child({ continueExceeding: true });
    store.hit('a', 1_000, 0);
    clock.now += 900;
    expect(store.hit('a', 5_000, 0)).toEqual({ current: 2, ttl: 5_000 });
    store.reset('a');
    expect(store.peek('a').current).toBe(0);
  });

  it('exponentialBackoff doubles the window at each hit past max', () => {
    const store = new ClockedRateLimitStore(() => 0).child({ exponentialBackoff: true });
    store.hit('a', 1_000, 1);
    expect(store.hit('a', 1_000, 1).ttl).toBe(1_000);
    expect(store.hit('a', 1_000, 1).ttl).toBe(2_000);
    expect(store.hit('a', 1_000, 1).ttl).toBe(4_000);
  });

  it('children keep their own keys, each up to its capacity (least recently counted first out)', () => {
    const root = new ClockedRateLimitStore(() => 0, { capacity: 2 });
    const one = root.child({});
    const two = root.child({});
    one.hit('a', 1_000, 5);
    expect(two.peek('a').current).toBe(0);
    one.hit('b', 1_000, 5);
    one.hit('a', 1_000, 5);
    one.hit('c', 1_000, 5);
    expect(one.peek('b').current).toBe(0);
    expect(one.peek('a').current).toBe(2);
  });
});
