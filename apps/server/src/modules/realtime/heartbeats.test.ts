import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHeartbeats } from './realtime.service.js';

/** Heartbeats spread over their interval (realtime.service.ts, docs/deploy.md "Capacity"). */
describe('heartbeats', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const streams = (n: number) =>
    Array.from({ length: n }, () => ({
      beats: 0,
      heartbeat() {
        this.beats += 1;
      },
    }));

  it('every stream gets one heartbeat per interval, and no tick writes more than its share', () => {
    const heartbeats = createHeartbeats(20_000);
    const open = streams(20_000);
    for (const s of open) heartbeats.add(s);
    expect(heartbeats.largestSlice()).toBe(100);

    let largestTick = 0;
    for (let tick = 0; tick < 200; tick++) {
      const before = open.reduce((sum, s) => sum + s.beats, 0);
      vi.advanceTimersByTime(100);
      largestTick = Math.max(largestTick, open.reduce((sum, s) => sum + s.beats, 0) - before);
    }
    expect(largestTick).toBe(100);
    expect(open.every((s) => s.beats === 1)).toBe(true);
    vi.advanceTimersByTime(20_000);
    expect(open.every((s) => s.beats === 2)).toBe(true);
    heartbeats.stop();
  });

  it('a closed stream gets no more heartbeats; stop ends them all', () => {
    const heartbeats = createHeartbeats(1_000);
    const [kept, closed] = streams(2);
    heartbeats.add(kept!);
    heartbeats.add(closed!);
    heartbeats.delete(closed!);
    vi.advanceTimersByTime(1_000);
    expect([kept!.beats, closed!.beats]).toEqual([1, 0]);
    heartbeats.stop();
    vi.advanceTimersByTime(5_000);
    expect(kept!.beats).toBe(1);
  });

  it('an interval shorter than a tick is one slice', () => {
    const heartbeats = createHeartbeats(50);
    const [s] = streams(1);
    heartbeats.add(s!);
    vi.advanceTimersByTime(50);
    expect(s!.beats).toBe(1);
    heartbeats.stop();
  });
});
