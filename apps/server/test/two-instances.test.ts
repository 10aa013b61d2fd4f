import { randomBytes } from 'node:crypto';
import { type PositionResponse, StreamMessage, dinerStreamPath } from '@vez/contract';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toE164 } from '../src/lib/phone.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody, nextPhone } from './fixtures.js';
import { NGINX, type Nginx, hasNginx, startNginx } from './nginx.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { BISTRO_HOST, DEMO_PASSWORD } from './staff-session.js';
import { dropPostgresSchema, postgresUrl } from './stores.js';

const redisUrl = process.env.REDIS_URL?.startsWith('redis://') ? process.env.REDIS_URL : undefined;
const missing = [
  !hasNginx && `${NGINX} (the nginx package)`,
  !postgresUrl && 'DATABASE_URL=postgres://…',
  !redisUrl && 'REDIS_URL=redis://…',
].filter(Boolean);
if (missing.length > 0) console.warn(`SKIPPED two-instances.test.ts: it needs ${missing.join(', ')}; .ci/run provides them`);

const METRICS_TOKEN = 'two-instances-metrics-token';
const OTP_LIMIT = 3;

/** A diner's page as a browser keeps it: an EventSource through the proxy, reconnecting as told. */
function followPosition(base: string, waitlistId: string) {
  const source = new EventSource(`${base}/api${dinerStreamPath(waitlistId)}?lng=pt`);
  const seen: PositionResponse[] = [];
  let opens = 0;
  let wake: (() => void) | undefined;
  source.addEventListener('open', () => {
    opens += 1;
  });
  source.addEventListener(StreamMessage.position, (event) => {
    seen.push(JSON.parse(event.data) as PositionResponse);
    wake?.();
  });
  return {
    opens: () => opens,
    /** Resolves with the first message (so far or to come) whose entry has this status. */
    async status(status: string, timeoutMs = 15_000): Promise<PositionResponse> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = seen.find((m) => m.waitlist.status === status);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no '${status}' within ${timeoutMs} ms; saw ${seen.map((m) => m.waitlist.status).join(', ')}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => source.close(),
  };
}

/** How many diner streams an instance holds now, from its own /metrics (plugins/metrics.ts). */
async function dinerStreams(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('vez_open_streams{kind="diner"}'));
  return Number(line?.split(' ')[1] ?? 0);
}

/** The instance holding one more diner stream than before. */
async function streamHolder(servers: ServerProcess[], before: number[]): Promise<number> {
  // The page has its first message: the stream is open, and the holder's count shows it (the
  // test's deadline bounds the wait).
  for (;;) {
    const now = await Promise.all(servers.map(dinerStreams));
    const index = now.findIndex((n, k) => n > before[k]!);
    if (index !== -1) return index;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function loginOn(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.url}/api/host/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: BISTRO_HOST, password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function callOn(server: ServerProcess, cookie: string, entryId: string): Promise<number> {
  const res = await fetch(`${server.url}/api/host/venues/${DEMO_BISTRO_ID}/entries/${entryId}/call`, {
    method: 'POST',
    headers: { cookie },
  });
  return res.status;
}

async function join(base: string): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${base}/api/waitlists/${DEMO_BISTRO_ID}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(createBody()),
  });
  const body = (await res.json().catch(() => ({}))) as { _id?: string };
  return { status: res.status, ...(body._id ? { id: body._id } : {}) };
}

/**
 * docs/deploy.md: two instances on one PostgreSQL and one Redis behind a real nginx, as an operator
 * runs them. Events cross instances; limits see the real client; an instance that gets SIGTERM hands
 * its streams over and loses nothing it acknowledged (docs/product.md §9).
 */
describe.skipIf(missing.length > 0)('two instances behind nginx (PostgreSQL + Redis)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const servers: ServerProcess[] = [];
  let nginx: Nginx;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: postgresUrl!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl!,
      TRUST_PROXY: '1',
      METRICS_TOKEN,
      OTP_SENDS_PER_ADDRESS_PER_10_MIN: String(OTP_LIMIT),
      RATE_LIMIT_JOINS_PER_10_MIN: '1000',
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '1000',
      MESSAGE_WORKER: '0',
    };
    // One after the other: the first creates the schema, migrates and seeds.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    nginx = await startNginx(servers.map((s) => s.url));
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await dropPostgresSchema(schema);
  });

  it('a diner joins on one instance, the host calls on the other, and the stream through the proxy shows the call', async () => {
    const joined = await join(servers[0]!.url);
    expect(joined.status).toBe(201);
    const before = await Promise.all(servers.map(dinerStreams));
    const page = followPosition(nginx.base, joined.id!);
    try {
      await page.status('active');
      const holder = await streamHolder(servers, before);
      // The call is made on the instance that does not hold the stream: only Redis can carry it.
      const other = servers[1 - holder]!;
      expect(await callOn(other, await loginOn(other), joined.id!)).toBe(200);
      const called = await page.status('called');
      expect(called.waitlist._id).toBe(joined.id);
    } finally {
      page.close();
    }
  });

  it("the limits count the real client's address, whatever X-Forwarded-For it sends", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < OTP_LIMIT + 2; i++) {
      const res = await fetch(`${nginx.base}/api/otp/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: JSON.stringify({
          productName: 'waitlist',
          channel: 'sms',
          venueId: DEMO_CLUB_ID,
          type: 'validate',
          target: toE164(nextPhone()),
        }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(OTP_LIMIT).fill(200), 429, 429]);
  });

  it('SIGTERM to the instance holding a stream: the diner reconnects to the other and sees the call; no acknowledged join is lost', async () => {
    const joined = await join(nginx.base);
    expect(joined.status).toBe(201);
    const before = await Promise.all(servers.map(dinerStreams));
    const page = followPosition(nginx.base, joined.id!);
    try {
      await page.status('active');
      const holder = await streamHolder(servers, before);
      const leaving = servers[holder]!;
      const staying = servers[1 - holder]!;
      const cookie = await loginOn(staying);
      // The joins below can outnumber the demo venue's cap of waiting parties (200): no cap.
      const uncapped = await fetch(`${staying.url}/api/host/venues/${DEMO_BISTRO_ID}/settings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ settings: { maxWaitingParties: null } }),
      });
      expect(uncapped.status).toBe(200);

      // Joins and reads keep arriving through the proxy from three diners and a reader, each one
      // request after another, from before the signal until the instance has exited (docs/deploy.md,
      // "Restarting without an error").
      let hasExited = false;
      const joins: { status: number; id?: string }[] = [];
      const reads: number[] = [];
      const joining = [1, 2, 3].map(async () => {
        while (!hasExited) joins.push(await join(nginx.base));
      });
      const reading = (async () => {
        while (!hasExited) reads.push((await fetch(`${nginx.base}/api/waitlists/${joined.id}/position`)).status);
      })();
      const exited = new Promise<number | null>((resolve) => leaving.child.once('exit', (code) => resolve(code)));
      leaving.child.kill('SIGTERM');
      expect(await callOn(staying, cookie, joined.id!)).toBe(200);

      const called = await page.status('called');
      expect(called.waitlist._id).toBe(joined.id);
      // The page came back on its own: a second connection, to the instance still running.
      expect(page.opens()).toBeGreaterThanOrEqual(2);
      // It exited cleanly: code 0 comes only before its own deadline (main.ts), under 10 s.
      expect(await exited).toBe(0);
      hasExited = true;
      await Promise.all([...joining, reading]);

      // Nothing failed (a connection error would have thrown above), and every join answered 201 is kept.
      expect(joins.filter((a) => a.status !== 201)).toEqual([]);
      expect(reads.filter((status) => status !== 200)).toEqual([]);
      expect(joins.length).toBeGreaterThan(0);
      for (const { id } of joins) {
        expect((await fetch(`${staying.url}/api/waitlists/${id}/position`)).status).toBe(200);
      }
    } finally {
      page.close();
    }
  }, 60_000);
});
