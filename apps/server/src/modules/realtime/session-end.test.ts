import { randomBytes } from 'node:crypto';
import { type HostStreamData, StreamMessage } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody } from '../../../test/fixtures.js';
import { type SseClient, openSse } from '../../../test/sse-client.js';
import { BISTRO_HOST, DEMO_PASSWORD, loginCookie } from '../../../test/staff-session.js';
import { type TestLocation, stores } from '../../../test/stores.js';
import { appOnStore, seededStore } from '../../../test/harness.js';
import { runAdmin } from '../../cli/admin-commands.js';
import { type Db, openDb } from '../../db/connect.js';
import { type RedisBus, createRedisBus } from '../../plugins/bus-redis.js';
import { createStaff } from '../staff/staff.service.js';

const redisUrl = /^rediss?:\/\//.test(process.env.REDIS_URL ?? '') ? process.env.REDIS_URL : undefined;
if (!redisUrl)
  process.stderr.write('\n[session end] two-instance tests NOT RUN: REDIS_URL is not set (REDIS_URL=redis://127.0.0.1:6379).\n');

/** The bound docs/security.md promises between a change to a session and its consoles closing. */
const CLOSE_WITHIN_MS = 1_000;

/** A second connection to the same store: the other instance's. */
const sameStore = (location: TestLocation): Db =>
  location.kind === 'sqlite'
    ? openDb({ kind: 'sqlite', file: location.file })
    : openDb({ kind: 'postgres', url: location.url }, { schema: location.schema });

/** An open console stream that already had its snapshot, and when it ended (performance.now()). */
interface Console {
  client: SseClient;
  ended: Promise<number>;
}

// A session that ends, ends everywhere (docs/security.md): two instances on one store and Redis.
describe.runIf(redisUrl).each(stores)('console streams end with their session on two instances, $name', (store) => {
  let dbA: Db & { location: TestLocation };
  let dbB: Db;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const buses: RedisBus[] = [];
  const prefix = `vez-test-${randomBytes(4).toString('hex')}:`;
  const bus = () => {
    const made = createRedisBus(redisUrl!, { prefix });
    buses.push(made);
    return made;
  };
  const base = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const events = `/api/host/venues/${DEMO_BISTRO_ID}/events`;
  let owner: string;
  let members = 0;

  beforeAll(async () => {
    dbA = await seededStore(store);
    dbB = sameStore(dbA.location);
    a = await appOnStore(dbA, { REDIS_URL: redisUrl! }, { bus: bus() });
    b = await appOnStore(dbB, { REDIS_URL: redisUrl! }, { bus: bus() });
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.listen({ port: 0, host: '127.0.0.1' });
    // Every instance hears the staff news from its start: confirmed by Redis before any test.
    await Promise.all(buses.map((x) => x.ready()));
    owner = await loginCookie(a, BISTRO_HOST);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await dbB.close();
    await dbA.close();
  });

  /** A new host of the Bistro; answers its id and a way to sign it in. */
  const member = async () => {
    const email = `member-${++members}@bistro.example`;
    const id = await createStaff(dbA.kysely, { email, password: DEMO_PASSWORD, venueIds: [DEMO_BISTRO_ID], role: 'host' });
    return { id, email, login: () => loginCookie(a, email, DEMO_PASSWORD) };
  };
  /** A console that had its snapshot, to read further messages from. */
  const openReader = async (app: FastifyInstance, cookie: string): Promise<SseClient> => {
    const client = await openSse(`${base(app)}${events}`, { cookie });
    expect(client.status).toBe(200);
    await client.next((m) => m.event === StreamMessage.queue);
    return client;
  };
  /** A console whose end is awaited (it reads no further message). */
  const openConsole = async (app: FastifyInstance, cookie: string): Promise<Console> => {
    const client = await openReader(app, cookie);
    // The stream's end: waiting for a message that never matches rejects when the stream ends.
    const ended = client
      .next(() => false)
      .then(
        () => Number.NaN,
        () => performance.now(),
      );
    return { client, ended };
  };
  /** Runs the change, then waits for each console's end: within the bound of the change's answer. */
  const expectClosedAfter = async (change: () => Promise<{ statusCode: number; body: string }>, consoles: Console[]) => {
    const res = await change();
    expect(res.statusCode, res.body).toBeLessThan(300);
    const answeredAt = performance.now();
    for (const ended of await Promise.all(consoles.map((c) => c.ended))) expect(ended - answeredAt).toBeLessThan(CLOSE_WITHIN_MS);
  };
  const staffUrl = (id: string) => `/api/host/venues/${DEMO_BISTRO_ID}/staff/${id}`;

  it('removing a member closes their consoles on both instances', async () => {
    const m = await member();
    const cookie = await m.login();
    const consoles = [await openConsole(a, cookie), await openConsole(b, cookie)];
    await expectClosedAfter(() => a.inject({ method: 'DELETE', url: staffUrl(m.id), headers: { cookie: owner } }), consoles);
    expect((await openSse(`${base(b)}${events}`, { cookie })).status).toBe(401);
  });

  it('a role change closes their consoles on both instances; they come back under the new role', async () => {
    const m = await member();
    const cookie = await m.login();
    const consoles = [await openConsole(a, cookie), await openConsole(b, cookie)];
    await expectClosedAfter(
      () => b.inject({ method: 'PATCH', url: staffUrl(m.id), headers: { cookie: owner }, payload: { role: 'owner' } }),
      consoles,
    );
    (await openReader(a, cookie)).close();
  });

  it('a password change closes the consoles of every other session on both instances; the asking one stays', async () => {
    const m = await member();
    const asking = await m.login();
    const other = await m.login();
    const others = [await openConsole(a, other), await openConsole(b, other)];
    const staying = await openReader(b, asking);
    await expectClosedAfter(
      () =>
        a.inject({
          method: 'POST',
          url: '/api/host/password',
          headers: { cookie: asking },
          payload: { currentPassword: DEMO_PASSWORD, newPassword: 'a-new-password-1' },
        }),
      others,
    );
    // The asking session's console still follows the queue.
    const walkIn = await a.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/entries`,
      headers: { cookie: owner },
      payload: createBody(),
    });
    const id = walkIn.json().entry._id as string;
    await staying.next((msg) => (JSON.parse(msg.data) as HostStreamData).entries.some((e) => e._id === id));
    staying.close();
  });

  it('a logout closes that session’s consoles on both instances, not another session’s', async () => {
    const m = await member();
    const leaving = await m.login();
    const staying = await m.login();
    const consoles = [await openConsole(a, leaving), await openConsole(b, leaving)];
    const other = await openReader(a, staying);
    await expectClosedAfter(() => b.inject({ method: 'POST', url: '/api/host/logout', headers: { cookie: leaving } }), consoles);
    const walkIn = await b.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/entries`,
      headers: { cookie: owner },
      payload: createBody(),
    });
    const id = walkIn.json().entry._id as string;
    await other.next((msg) => (JSON.parse(msg.data) as HostStreamData).entries.some((e) => e._id === id));
    other.close();
  });

  it("an owner ending a member's sessions closes all their consoles on both instances", async () => {
    const m = await member();
    const first = await m.login();
    const second = await m.login();
    const consoles = [await openConsole(a, first), await openConsole(b, first), await openConsole(b, second)];
    await expectClosedAfter(() => a.inject({ method: 'DELETE', url: `${staffUrl(m.id)}/sessions`, headers: { cookie: owner } }), consoles);
  });

  it('the operator’s staff:logout closes their consoles on both instances (the command tells Redis)', async () => {
    const m = await member();
    const cookie = await m.login();
    const consoles = [await openConsole(a, cookie), await openConsole(b, cookie)];
    const cli = bus();
    const out: string[] = [];
    await expectClosedAfter(async () => {
      const code = await runAdmin(['staff:logout', m.email], {
        db: dbA,
        out: (line) => out.push(line),
        err: (line) => out.push(line),
        prompt: async () => '',
        tellStaffNews: (news) => cli.publishStaffNews(news),
      });
      return { statusCode: code === 0 ? 200 : 500, body: out.join('\n') };
    }, consoles);
    expect(out.join('\n')).toContain('1 session(s) ended');
  });

  it('an event after the session ended is never written to its consoles', async () => {
    const m = await member();
    const cookie = await m.login();
    const consoles = [await openConsole(a, cookie), await openConsole(b, cookie)];
    const logout = await b.inject({ method: 'POST', url: '/api/host/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    // A change at once, on both instances, before either console may have closed.
    const walkIns = await Promise.all(
      [a, b].map((app) =>
        app.inject({
          method: 'POST',
          url: `/api/host/venues/${DEMO_BISTRO_ID}/entries`,
          headers: { cookie: owner },
          payload: createBody(),
        }),
      ),
    );
    const ids = walkIns.map((w) => w.json().entry._id as string);
    await Promise.all(consoles.map((c) => c.ended));
    for (const c of consoles) for (const id of ids) expect(c.client.raw()).not.toContain(id);
  });
});
