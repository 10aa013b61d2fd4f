import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin, joinParty } from '../../../test/fixtures.js';
import { openSse } from '../../../test/sse-client.js';
import { appOnStore, seededStore } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import type { Db } from '../../db/connect.js';
import { type EventBus, createLocalBus } from '../../plugins/bus.js';

/** A local bus that counts live subscriptions per venue. */
function countingBus(): EventBus & { count(venueId: string): number } {
  const inner = createLocalBus();
  const counts = new Map<string, number>();
  return {
    publish: (e) => inner.publish(e),
    publishStaffNews: (news) => inner.publishStaffNews(news),
    subscribeStaffNews: (listener) => inner.subscribeStaffNews(listener),
    subscribe(venueId, listener) {
      counts.set(venueId, (counts.get(venueId) ?? 0) + 1);
      const off = inner.subscribe(venueId, listener);
      return () => {
        counts.set(venueId, (counts.get(venueId) ?? 0) - 1);
        off();
      };
    },
    close: () => inner.close(),
    count: (venueId) => counts.get(venueId) ?? 0,
  };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
};

describe.each(stores)('stream cleanup on $name', (store) => {
  let db: Db;
  beforeAll(async () => {
    db = await seededStore(store);
  });
  afterAll(async () => db.close());

  it('one bus subscription per venue per instance, dropped when the last stream closes', async () => {
    const bus = countingBus();
    const app = await appOnStore(db, {}, { bus });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as { port: number }).port;
      const ids = await Promise.all([1, 2, 3].map(async () => (await postJoin({ app })).json()._id as string));
      // The kept venue and book hear the venue from the first read on (one watch, queue-caches.ts,
      // docs/decisions/052-venues-kept-while-heard.md): the streams' own subscription comes on top.
      const watched = bus.count(DEMO_BISTRO_ID);
      expect(watched).toBeLessThanOrEqual(1);
      const streams = await Promise.all(ids.map((id) => openSse(`http://127.0.0.1:${port}/api/waitlists/${id}/events`)));
      await Promise.all(streams.map((s) => s.next()));
      expect(bus.count(DEMO_BISTRO_ID)).toBe(watched + 1);
      streams[0]!.close();
      streams[1]!.close();
      expect(bus.count(DEMO_BISTRO_ID)).toBe(watched + 1);
      streams[2]!.close();
      await until(() => bus.count(DEMO_BISTRO_ID) === watched);
      expect(bus.count(DEMO_BISTRO_ID)).toBe(watched);
    } finally {
      await app.close();
    }
  });

  it('a stream opened while only staff-side events are pending still gets its snapshot', async () => {
    // A join's SMS is delivered right after the join: its delivery report (staffOnly,
    // docs/product.md §7) comes with the new stream's first refresh, which must still write it.
    const app = await appOnStore(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as { port: number }).port;
      for (let i = 0; i < 3; i++) {
        const id = (await joinParty({ app })).id;
        const stream = await openSse(`http://127.0.0.1:${port}/api/waitlists/${id}/events`);
        app.bus.publish({ type: 'update', venueId: DEMO_BISTRO_ID, entryId: id, at: new Date().toISOString(), staffOnly: true });
        expect(JSON.parse((await stream.next()).data).waitlist._id).toBe(id);
        stream.close();
      }
    } finally {
      await app.close();
    }
  });

  it('closing the app ends open streams instead of waiting for them', async () => {
    const app = await appOnStore(db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const id = (await joinParty({ app })).id;
    const stream = await openSse(`http://127.0.0.1:${port}/api/waitlists/${id}/events`);
    await stream.next();
    await app.close();
    await expect(stream.next()).rejects.toThrow('stream ended');
  });
});
