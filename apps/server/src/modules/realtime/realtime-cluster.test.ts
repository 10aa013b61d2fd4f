import { randomBytes } from 'node:crypto';
import { type HostStreamData, type PositionResponse, type VenueChannelEvent, defaultVenueSettings } from '@vez/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin, joinParty } from '../../../test/fixtures.js';
import { openSse } from '../../../test/sse-client.js';
import { loginCookie } from '../../../test/staff-session.js';
import { appOnStore, seededStore } from '../../../test/harness.js';
import { startRedisProxy } from '../../../test/redis-proxy.js';
import { postgresStore, postgresUrl, sqliteStore } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { callEntry, endExpiredHolds, findEntryById } from '../queue/index.js';
import { type Db, openDb } from '../../db/connect.js';
import type { StaffNews } from '../../plugins/bus.js';
import { createRedisBus } from '../../plugins/bus-redis.js';

const redisUrl = /^rediss?:\/\//.test(process.env.REDIS_URL ?? '') ? process.env.REDIS_URL : undefined;
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
};

if (!redisUrl) {
  process.stderr.write(
    '\n[realtime cluster] Redis bus tests NOT RUN: REDIS_URL is not set (REDIS_URL=redis://127.0.0.1:6379 runs them).\n',
  );
}
if (!redisUrl || !postgresUrl) {
  process.stderr.write('\n[realtime cluster] two-instance test NOT RUN: it needs DATABASE_URL=postgres://… and REDIS_URL=redis://….\n');
}

describe.runIf(redisUrl)('Redis bus', () => {
  it('delivers a venue event to every instance’s subscribers, its own included, and nothing else', async () => {
    const prefix = `vez-test-${randomBytes(4).toString('hex')}:`;
    const a = createRedisBus(redisUrl!, { prefix });
    const b = createRedisBus(redisUrl!, { prefix });
    try {
      const gotA: VenueChannelEvent[] = [];
      const gotB: VenueChannelEvent[] = [];
      const offA = a.subscribe(DEMO_BISTRO_ID, (e) => gotA.push(e));
      b.subscribe(DEMO_BISTRO_ID, (e) => gotB.push(e));
      b.subscribe('6553f1a2b3c4d5e6f7a8b902', () => gotB.push({ type: 'remove', venueId: 'wrong', at: '' }));
      await Promise.all([a.ready(), b.ready()]);
      const event: VenueChannelEvent = {
        type: 'call',
        venueId: DEMO_BISTRO_ID,
        entryId: 'AAAAAAAAAAAAAAAAAAAAAA',
        at: new Date().toISOString(),
      };
      a.publish(event);
      await until(() => gotA.length === 1 && gotB.length === 1);
      expect(gotA).toEqual([event]);
      expect(gotB).toEqual([event]);
      offA();
      b.publish({ ...event, type: 'seat' });
      await until(() => gotB.length === 2);
      expect(gotA).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.runIf(redisUrl)('an instance whose bus lost events (docs/decisions/054-losses-heard.md)', () => {
  it("writes its diners' pages again once subscribed anew, from the queue read again", async () => {
    const proxy = await startRedisProxy(redisUrl!);
    const db = await seededStore(sqliteStore);
    const bus = createRedisBus(proxy.url, { prefix: `vez-test-${randomBytes(4).toString('hex')}:` });
    const app = await appOnStore(db, { REDIS_URL: redisUrl! }, { bus });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const id = (await joinParty({ app })).id;
      const stream = await openSse(`http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/waitlists/${id}/events`);
      expect((JSON.parse((await stream.next()).data) as PositionResponse).waitlist.status).toBe('active');
      await bus.ready();
      // The subscriber connection drops and cannot come back yet: the call's event goes out
      // through the publishing connection, and this instance does not hear it.
      proxy.hold();
      proxy.dropSubscribers();
      await callEntry(app.queueDeps, (await findEntryById(db.kysely, id))!);
      await bus.ping!(); // the call's publish has reached Redis
      proxy.release();
      // The first message that is not the page as it was (a refresh may write that again first).
      const called = JSON.parse(
        (await stream.next((m) => (JSON.parse(m.data) as PositionResponse).waitlist.status !== 'active')).data,
      ) as PositionResponse;
      expect(called.waitlist).toMatchObject({ _id: id, status: 'called' });
      stream.close();
    } finally {
      await app.close();
      await db.close();
      await proxy.close();
    }
  });
});

/** Staff news heard by one bus, and a promise of the n-th one (woken by the listener, no polling). */
function staffNewsHeard() {
  const got: StaffNews[] = [];
  const wake: (() => void)[] = [];
  return {
    got,
    listener(news: StaffNews) {
      got.push(news);
      for (const w of wake.splice(0)) w();
    },
    atLeast(n: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => (got.length >= n ? resolve() : wake.push(check));
        check();
      });
    },
  };
}

describe.runIf(redisUrl)('Redis bus staff news', () => {
  it('reaches every instance, the publishing one included; a malformed message on its channel is ignored', async () => {
    const prefix = `vez-test-${randomBytes(4).toString('hex')}:`;
    const a = createRedisBus(redisUrl!, { prefix });
    const b = createRedisBus(redisUrl!, { prefix });
    const raw = new Redis(redisUrl!);
    try {
      const heardA = staffNewsHeard();
      const heardB = staffNewsHeard();
      a.subscribeStaffNews(heardA.listener);
      const offB = b.subscribeStaffNews(heardB.listener);
      await Promise.all([a.ready(), b.ready()]);
      await raw.publish(`${prefix}staff-news`, JSON.stringify({ kind: 'sessions-ended' }));
      await raw.publish(`${prefix}staff-news`, 'not json');
      const news: StaffNews = { kind: 'session-ended', staffId: 'staff-1', sessionId: 'a'.repeat(64) };
      a.publishStaffNews(news);
      await Promise.all([heardA.atLeast(1), heardB.atLeast(1)]);
      // Redis delivers a channel's messages in order: the malformed ones came first and were dropped.
      expect(heardA.got).toEqual([news]);
      expect(heardB.got).toEqual([news]);
      offB();
      const changed: StaffNews = { kind: 'role-changed', staffId: 'staff-1', venueId: DEMO_BISTRO_ID };
      b.publishStaffNews(changed);
      await heardA.atLeast(2);
      expect(heardA.got).toEqual([news, changed]);
      expect(heardB.got).toEqual([news]);
    } finally {
      raw.disconnect();
      await a.close();
      await b.close();
    }
  });
});

describe.runIf(redisUrl && postgresUrl)('two server instances on one PostgreSQL and Redis', () => {
  let dbA: Db & { location: unknown };
  let dbB: Db;
  const prefix = `vez-test-${randomBytes(4).toString('hex')}:`;
  beforeAll(async () => {
    dbA = await seededStore(postgresStore);
    const location = dbA.location as { schema: string };
    dbB = openDb({ kind: 'postgres', url: postgresUrl! }, { schema: location.schema });
  });
  afterAll(async () => {
    await dbB.close();
    await dbA.close();
  });

  it('a change through instance A reaches a diner stream on instance B', async () => {
    const busB = createRedisBus(redisUrl!, { prefix });
    const a = await appOnStore(dbA, { REDIS_URL: redisUrl! }, { bus: createRedisBus(redisUrl!, { prefix }) });
    const b = await appOnStore(dbB, { REDIS_URL: redisUrl! }, { bus: busB });
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.listen({ port: 0, host: '127.0.0.1' });
    try {
      const portB = (b.server.address() as { port: number }).port;
      const id = (await joinParty({ app: a })).id;
      const stream = await openSse(`http://127.0.0.1:${portB}/api/waitlists/${id}/events`);
      expect((JSON.parse((await stream.next()).data) as PositionResponse).waitlist.status).toBe('active');
      await busB.ready(); // B's subscription to the venue is confirmed by Redis
      const cookie = await loginCookie(a);
      expect(
        (await a.inject({ method: 'POST', url: `/api/host/venues/${DEMO_BISTRO_ID}/entries/${id}/call`, headers: { cookie } })).statusCode,
      ).toBe(200);
      const called = JSON.parse((await stream.next()).data) as PositionResponse;
      expect(called.waitlist).toMatchObject({ _id: id, status: 'called' });
      stream.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
  it("the conversation crosses instances: a party's answer on A reaches the console on B, B's message the diner on A", async () => {
    const busA = createRedisBus(redisUrl!, { prefix });
    const busB = createRedisBus(redisUrl!, { prefix });
    const a = await appOnStore(dbA, { REDIS_URL: redisUrl! }, { bus: busA });
    const b = await appOnStore(dbB, { REDIS_URL: redisUrl! }, { bus: busB });
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app: typeof a) => (app.server.address() as { port: number }).port;
      const id = (await joinParty({ app: a })).id;
      const cookie = await loginCookie(b);
      const consoleOnB = await openSse(`http://127.0.0.1:${port(b)}/api/host/venues/${DEMO_BISTRO_ID}/events`, { cookie });
      const dinerOnA = await openSse(`http://127.0.0.1:${port(a)}/api/waitlists/${id}/events`);
      await consoleOnB.next();
      await dinerOnA.next();
      await Promise.all([busA.ready(), busB.ready()]);

      const answered = await a.inject({
        method: 'POST',
        url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/reply`,
        payload: { reply: 'arrived' },
      });
      expect(answered.statusCode).toBe(200);
      const seen = JSON.parse(
        (await consoleOnB.next((m) => (JSON.parse(m.data) as HostStreamData).events.some((e) => e.entryId === id))).data,
      ) as HostStreamData;
      expect(seen.events).toContainEqual(expect.objectContaining({ type: 'update', entryId: id, byParty: true }));
      expect(seen.entries.find((e) => e._id === id)?.reply).toMatchObject({ kind: 'arrived' });

      const written = await b.inject({
        method: 'POST',
        url: `/api/host/venues/${DEMO_BISTRO_ID}/entries/${id}/messages`,
        headers: { cookie },
        payload: { text: 'Pode entrar' },
      });
      expect(written.statusCode).toBe(201);
      const onPage = JSON.parse((await dinerOnA.next((m) => (JSON.parse(m.data) as PositionResponse).waitlist.messages.length > 0)).data);
      expect((onPage as PositionResponse).waitlist.messages).toMatchObject([{ text: 'Pode entrar' }]);
      consoleOnB.close();
      dinerOnA.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('an ended hold window is marked no-show once, with one message, though both instances look at the same time', async () => {
    const clock = { now: Date.now() };
    const busA = createRedisBus(redisUrl!, { prefix });
    const busB = createRedisBus(redisUrl!, { prefix });
    const a = await appOnStore(dbA, { REDIS_URL: redisUrl! }, { bus: busA, now: () => clock.now });
    const b = await appOnStore(dbB, { REDIS_URL: redisUrl! }, { bus: busB, now: () => clock.now });
    try {
      const venueId = await addVenueLike(dbA, DEMO_BISTRO_ID, {
        settings: JSON.stringify({ ...defaultVenueSettings, holdMinutes: 10, autoNoShow: true }),
      });
      const seen: VenueChannelEvent[] = [];
      b.bus.subscribe(venueId, (e) => seen.push(e));
      await Promise.all([busA.ready(), busB.ready()]);
      const joined = await postJoin({ app: a }, {}, { venueId });
      const id = joined.json()._id as string;
      await callEntry(a.queueDeps, (await findEntryById(dbA.kysely, id))!);
      clock.now += 11 * 60_000;
      const ended = await Promise.all([endExpiredHolds(a.queueDeps), endExpiredHolds(b.queueDeps), endExpiredHolds(a.queueDeps)]);
      expect(ended.reduce((x, y) => x + y, 0)).toBe(1);
      const row = await findEntryById(dbB.kysely, id);
      expect([row?.status, row?.cancel_reason]).toEqual(['cancelled', 'NoShow']);
      const noShows = await dbA.kysely.selectFrom('messages').select('id').where('idempotency_key', '=', `noshow:${id}`).execute();
      expect(noShows).toHaveLength(1);
      // A join through each instance after the three looks: Redis keeps each publisher's order, so
      // once B has heard both, it has heard every cancel either instance published before them.
      const markers = [(await postJoin({ app: a }, {}, { venueId })).json()._id, (await postJoin({ app: b }, {}, { venueId })).json()._id];
      await until(() => markers.every((marker) => seen.some((e) => e.type === 'add' && e.entryId === marker)));
      expect(seen.filter((e) => e.type === 'cancel' && e.entryId === id)).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a position answer kept on instance B is void once a change through A reaches B', async () => {
    const busB = createRedisBus(redisUrl!, { prefix });
    const a = await appOnStore(dbA, { REDIS_URL: redisUrl! }, { bus: createRedisBus(redisUrl!, { prefix }) });
    const b = await appOnStore(dbB, { REDIS_URL: redisUrl! }, { bus: busB });
    try {
      const id = (await joinParty({ app: a })).id;
      const readOnB = async () =>
        ((await b.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json() as PositionResponse).waitlist.status;
      expect(await readOnB()).toBe('active'); // now kept on B, which listens to the venue
      await busB.ready();
      const cookie = await loginCookie(a);
      expect(
        (await a.inject({ method: 'POST', url: `/api/host/venues/${DEMO_BISTRO_ID}/entries/${id}/call`, headers: { cookie } })).statusCode,
      ).toBe(200);
      // B hears the call through Redis well before its kept answer would expire (1 s).
      const started = performance.now();
      let status = await readOnB();
      while (status !== 'called' && performance.now() - started < 900) {
        // A kept answer comes back without I/O: pause so the event loop reads Redis's message.
        await new Promise((r) => setTimeout(r, 10));
        status = await readOnB();
      }
      expect(status).toBe('called');
    } finally {
      await a.close();
      await b.close();
    }
  });
});
