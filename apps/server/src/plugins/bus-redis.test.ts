import { randomBytes } from 'node:crypto';
import type { VenueChannelEvent } from '@vez/contract';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { type RedisProxy, startRedisProxy } from '../../test/redis-proxy.js';
import { createRedisBus } from './bus-redis.js';

const redisUrl = /^rediss?:\/\//.test(process.env.REDIS_URL ?? '') ? process.env.REDIS_URL : undefined;
if (!redisUrl)
  process.stderr.write('\n[bus-redis] Redis bus loss tests NOT RUN: REDIS_URL is not set (REDIS_URL=redis://127.0.0.1:6379 runs them).\n');

const VENUE = '6553f1a2b3c4d5e6f7a8b9c0';
const event = (type: VenueChannelEvent['type'] = 'call'): VenueChannelEvent => ({
  type,
  venueId: VENUE,
  entryId: 'AAAAAAAAAAAAAAAAAAAAAA',
  at: new Date().toISOString(),
});

/** Counts calls and wakes whoever waits for the n-th (no polling). */
function counter() {
  let count = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  return {
    get count() {
      return count;
    },
    hit() {
      count++;
      for (const w of waiting.filter((w) => count >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    },
    atLeast(n: number): Promise<void> {
      return count >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }));
    },
  };
}

const prefixOf = () => `vez-test-${randomBytes(4).toString('hex')}:`;
// Long heartbeats: no instance is taken for gone unless a test says so.
const QUIET = { heartbeatMs: 60_000 };

async function withProxy(run: (proxy: RedisProxy) => Promise<void>): Promise<void> {
  const proxy = await startRedisProxy(redisUrl!);
  try {
    await run(proxy);
  } finally {
    await proxy.close();
  }
}

describe.runIf(redisUrl)('Redis bus: losses are told, never silent (docs/decisions/054-losses-heard.md)', () => {
  it('a venue subscription answered by Redis tells its loss listeners once; later events are heard, not lost', async () => {
    const prefix = prefixOf();
    const a = createRedisBus(redisUrl!, { prefix, ...QUIET });
    const b = createRedisBus(redisUrl!, { prefix, ...QUIET });
    try {
      const heard: VenueChannelEvent[] = [];
      const losses = counter();
      const laterLosses = counter();
      a.subscribe(VENUE, (e) => heard.push(e), losses.hit);
      a.subscribe(VENUE, () => {}, laterLosses.hit); // added before the answer: told too
      await a.ready();
      expect([losses.count, laterLosses.count]).toEqual([1, 1]);
      const afterAnswer = counter();
      a.subscribe(VENUE, () => {}, afterAnswer.hit); // the channel is heard already: nothing was missed
      const got = counter();
      a.subscribe(VENUE, got.hit);
      b.publish(event());
      await got.atLeast(1);
      expect(heard).toEqual([expect.objectContaining({ type: 'call', venueId: VENUE })]);
      expect([losses.count, afterAnswer.count]).toEqual([1, 0]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a dropped subscriber connection is a loss at once and again once subscribed anew; what was published meanwhile is not heard, what follows is', async () => {
    await withProxy(async (proxy) => {
      const prefix = prefixOf();
      const a = createRedisBus(proxy.url, { prefix, ...QUIET });
      const b = createRedisBus(redisUrl!, { prefix, ...QUIET });
      try {
        const heard: VenueChannelEvent[] = [];
        const losses = counter();
        const got = counter();
        a.subscribe(
          VENUE,
          (e) => {
            heard.push(e);
            got.hit();
          },
          losses.hit,
        );
        await a.ready();
        await losses.atLeast(1); // the answer to SUBSCRIBE
        proxy.hold(); // A cannot connect again until released
        proxy.dropSubscribers();
        await losses.atLeast(2); // the connection closed
        b.publish(event('call')); // nobody on A hears this one
        await b.ping!(); // B's publish has reached Redis
        proxy.release();
        await losses.atLeast(3); // subscribed anew: kept state goes again
        b.publish(event('seat'));
        await got.atLeast(1);
        expect(heard.map((e) => e.type)).toEqual(['seat']);
        expect(losses.count).toBe(3);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  it('a publish that failed is told to every other instance once its connection is back', async () => {
    await withProxy(async (proxy) => {
      const prefix = prefixOf();
      const errors = counter();
      let failed = false;
      const a = createRedisBus(proxy.url, {
        prefix,
        ...QUIET,
        onError: (error) => {
          if (error instanceof Error && error.name === 'MaxRetriesPerRequestError') failed = true;
          errors.hit();
        },
      });
      const b = createRedisBus(redisUrl!, { prefix, ...QUIET });
      try {
        const losses = counter();
        b.subscribe(VENUE, () => {}, losses.hit);
        await Promise.all([a.ready(), b.ready(), a.ping!()]);
        await losses.atLeast(1);
        proxy.hold({ drop: true }); // Redis out of A's reach
        // A publish written just before ioredis sees the connection close is sent again once it is
        // back (heard late, not lost); one made while it reconnects is given up after its retries.
        // Each failed reconnect is an error: publish again at each until one is given up.
        while (!failed) {
          const seen = errors.count;
          a.publish(event());
          await errors.atLeast(seen + 1);
        }
        expect(losses.count).toBe(1);
        proxy.release();
        await losses.atLeast(2); // A said so on the bus once it could: B forgets what it kept
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  it('an instance that goes silent is taken for gone, with what it may have published last; one that says goodbye is not', async () => {
    const prefix = prefixOf();
    const a = createRedisBus(redisUrl!, { prefix, heartbeatMs: 50 });
    const raw = new Redis(redisUrl!);
    const listener = new Redis(redisUrl!);
    try {
      // A's own heartbeats are the clock: each one also looks for peers gone silent.
      const beats = counter();
      listener.on('message', (_channel: string, message: string) => {
        if ((JSON.parse(message) as { kind: string }).kind === 'alive') beats.hit();
      });
      await listener.subscribe(`${prefix}bus`);
      const losses = counter();
      a.subscribe(VENUE, () => {}, losses.hit);
      await a.ready();
      await losses.atLeast(1);
      await raw.publish(`${prefix}bus`, JSON.stringify({ kind: 'alive', id: 'leaving' }));
      await raw.publish(`${prefix}bus`, JSON.stringify({ kind: 'bye', id: 'leaving' }));
      // Five of A's heartbeats later, a peer heard once would have been silent for three.
      const seen = beats.count;
      await beats.atLeast(seen + 5);
      expect(losses.count).toBe(1);
      await raw.publish(`${prefix}bus`, JSON.stringify({ kind: 'alive', id: 'dying' }));
      await losses.atLeast(2);
      await raw.publish(`${prefix}bus`, JSON.stringify({ kind: 'lost', id: 'another' }));
      await losses.atLeast(3);
    } finally {
      raw.disconnect();
      listener.disconnect();
      await a.close();
    }
  });
});
