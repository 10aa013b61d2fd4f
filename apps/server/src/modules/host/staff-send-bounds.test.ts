import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty, nextPhone, countRows } from '../../../test/fixtures.js';
import { appOnStore, useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { runRetentionJob } from '../../jobs/retention.js';

/**
 * Sends that cost money are bounded for staff too (docs/security.md, staff send bounds): messages,
 * resends and calls per party per 10 minutes and per venue per hour, counted in the store; nothing
 * is sent again to a party that has ended.
 */
describe.each(stores)('staff send bounds on $name', (store) => {
  const PER_VENUE = 12;
  const t = useTestApp(store, { STAFF_SENDS_PER_VENUE_PER_HOUR: String(PER_VENUE) });
  let other: FastifyInstance;
  let staff: string;
  beforeAll(async () => {
    // A second instance on the same store: the counts are the store's, so both agree.
    other = await appOnStore(t.db, { DEMO: '1', STAFF_SENDS_PER_VENUE_PER_HOUR: String(PER_VENUE) }, { now: () => t.clock.now });
    await other.ready();
    staff = await t.staffCookie();
  });
  afterAll(async () => other.close());

  const join = async () => (await joinParty(t)).id;
  const host = (app: FastifyInstance, id: string, path: string, payload?: object) =>
    app.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/entries/${id}${path}`,
      headers: { cookie: staff },
      ...(payload ? { payload } : {}),
    });
  const card = async (id: string) => {
    const queue = await t.app.inject({ method: 'GET', url: `/api/host/venues/${DEMO_BISTRO_ID}/entries`, headers: { cookie: staff } });
    return queue.json().entries.find((e: { _id: string }) => e._id === id);
  };
  const queuedAbout = (id: string) => countRows(t.db, 'messages', { entry_id: id });
  const sendsNow = () => t.db.kysely.deleteFrom('staff_sends').execute();

  it('a party gets at most 6 staff sends in 10 minutes, from any instance; the 7th is a 429 with Retry-After and sends nothing', async () => {
    await sendsNow();
    const id = await join();
    const started = t.clock.now;
    expect((await host(t.app, id, '/call')).statusCode).toBe(200);
    t.clock.now += 60_000;
    expect((await host(other, id, '/messages', { text: 'Sua mesa está pronta.' })).statusCode).toBe(201);
    const last = (await card(id)).lastMessage._id as string;
    expect((await host(t.app, id, `/messages/${last}/resend`)).statusCode).toBe(200);
    expect((await host(other, id, '/call')).statusCode).toBe(200);
    expect((await host(t.app, id, '/messages', { text: 'Estamos esperando.' })).statusCode).toBe(201);
    expect((await host(other, id, '/call')).statusCode).toBe(200);
    const before = { card: await card(id), queued: await queuedAbout(id) };

    t.clock.now = started + 5 * 60_000;
    for (const [app, path, payload] of [
      [t.app, '/call', undefined],
      [other, '/messages', { text: 'Mais uma vez.' }],
      [t.app, `/messages/${last}/resend`, undefined],
    ] as const) {
      const refused = await host(app, id, path, payload);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'PARTY_SENDS_LIMITED', statusCode: 429 });
      // The first send leaves the 10-minute window 5 minutes from now.
      expect(refused.headers['retry-after']).toBe('300');
    }
    const after = await card(id);
    expect(after.calls).toBe(before.card.calls);
    expect(after.lastMessage._id).toBe(before.card.lastMessage._id);
    expect(await queuedAbout(id)).toBe(before.queued);

    // Once the first send is 10 minutes old, one more goes.
    t.clock.now = started + 10 * 60_000 + 1;
    expect((await host(t.app, id, '/call')).statusCode).toBe(200);
    expect((await host(t.app, id, '/call')).statusCode).toBe(429);
  });

  it(`a venue makes at most its hourly bound of staff sends (${PER_VENUE} here), all parties and instances together`, async () => {
    await sendsNow();
    const started = t.clock.now;
    const parties = await Promise.all(Array.from({ length: PER_VENUE / 2 + 1 }, join));
    for (const [i, id] of parties.slice(0, PER_VENUE / 2).entries()) {
      expect((await host(i % 2 ? other : t.app, id, '/call')).statusCode).toBe(200);
      expect((await host(i % 2 ? t.app : other, id, '/messages', { text: 'Pode vir.' })).statusCode).toBe(201);
      t.clock.now += 60_000;
    }
    const last = parties.at(-1)!;
    for (const app of [t.app, other]) {
      const refused = await host(app, last, '/call');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('VENUE_SENDS_LIMITED');
      expect(refused.headers['retry-after']).toBe(String((started + 3_600_000 - t.clock.now) / 1000));
    }
    expect((await card(last)).status).toBe('active');
    expect(await queuedAbout(last)).toBe(1);
    t.clock.now = started + 3_600_000;
    expect((await host(t.app, last, '/call')).statusCode).toBe(200);
  });

  it('a walk-in the host adds with a phone is a staff send of the venue: past the hourly bound it is refused and texts nobody', async () => {
    await sendsNow();
    const walkIn = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: `/api/host/venues/${DEMO_BISTRO_ID}/entries`,
        headers: { cookie: staff },
        payload: { customer: { name: 'Rui Balcão', phone: nextPhone() }, partySize: 2 },
      });
    for (let i = 0; i < PER_VENUE; i += 1) expect((await walkIn(i % 2 ? other : t.app)).statusCode).toBe(201);
    const messagesBefore = (await t.db.kysely.selectFrom('messages').select('id').execute()).length;
    for (const app of [t.app, other]) {
      const refused = await walkIn(app);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('VENUE_SENDS_LIMITED');
    }
    expect((await t.db.kysely.selectFrom('messages').select('id').execute()).length).toBe(messagesBefore);
    t.clock.now += 3_600_000;
  });

  it('nothing is sent again to a party that has ended: a resend, a message or a call answers 409', async () => {
    await sendsNow();
    for (const end of ['/seat', '/cancel'] as const) {
      const id = await join();
      const last = (await card(id)).lastMessage._id as string;
      const ended = await host(t.app, id, end, end === '/cancel' ? { reason: 'NoShow' } : undefined);
      expect(ended.statusCode).toBe(200);
      const queued = await queuedAbout(id);
      const resend = await host(t.app, id, `/messages/${last}/resend`);
      expect(resend.statusCode).toBe(409);
      expect(resend.json().code).toBe('ENTRY_NOT_ACTIVE');
      expect((await host(t.app, id, '/messages', { text: 'Oi' })).statusCode).toBe(409);
      expect((await host(t.app, id, '/call')).statusCode).toBe(409);
      expect(await queuedAbout(id)).toBe(queued);
    }
  });

  it('the retention job prunes counts older than an hour', async () => {
    const id = await join();
    expect((await host(t.app, id, '/call')).statusCode).toBe(200);
    const count = async () => (await t.db.kysely.selectFrom('staff_sends').select('id').execute()).length;
    expect(await count()).toBeGreaterThan(0);
    await runRetentionJob(t.app.queueDeps, { retentionHours: 24, openMaxHours: 24 }, t.clock.now + 3_600_001);
    expect(await count()).toBe(0);
  });
});
