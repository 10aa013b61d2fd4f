import { randomBytes } from 'node:crypto';
import type http2 from 'node:http2';
import { dinerStreamPath } from '@vez/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody } from './fixtures.js';
import { type GuideNginx, missingForGuideNginx, startGuideNginx } from './guide-nginx.js';
import { connectH2, h2request } from './h2-client.js';
import { type ServerProcess, startServerProcess } from './server-process.js';
import { BISTRO_HOST, DEMO_PASSWORD } from './staff-session.js';
import { dropPostgresSchema, postgresUrl } from './stores.js';

const METRICS_TOKEN = `guide-${randomBytes(8).toString('hex')}`;
const redisUrl = process.env.REDIS_URL?.startsWith('redis://') ? process.env.REDIS_URL : undefined;
const missing = [...missingForGuideNginx(), !postgresUrl && 'DATABASE_URL=postgres://…', !redisUrl && 'REDIS_URL=redis://…'].filter(
  Boolean,
);
if (missing.length > 0) console.warn(`SKIPPED deploy-guide.test.ts: it needs ${missing.join(', ')}; .ci/run provides them`);

/**
 * docs/deploy.md: the guide's nginx, TLS and HTTP/2 in front of two instances on one PostgreSQL and
 * one Redis. A diner's stream over HTTP/2 through the proxy shows the host's call as it happens (no
 * buffering), and plain HTTP is sent to https.
 */
describe.skipIf(missing.length > 0)("the deploy guide's nginx in front of two instances", () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const servers: ServerProcess[] = [];
  let nginx: GuideNginx;
  let ports: { https: number; http: number };
  let session: http2.ClientHttp2Session;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: postgresUrl!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl!,
      TRUST_PROXY: '1',
      MESSAGE_WORKER: '0',
      METRICS_TOKEN,
    };
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    nginx = await startGuideNginx(servers.map((s) => s.url.replace('http://', '')));
    ports = nginx.ports;
    session = await connectH2(nginx.httpsBase);
  }, 120_000);

  afterAll(async () => {
    session?.close();
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await dropPostgresSchema(schema);
  });

  it('plain HTTP is redirected to https', async () => {
    const res = await fetch(`http://127.0.0.1:${ports.http}/host`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toMatch(/^https:\/\/127\.0\.0\.1\/host$/);
  });

  it("over HTTP/2 and TLS: a diner's stream shows the host's call as it happens", async () => {
    const joined = await h2request(session, 'POST', `/api/waitlists/${DEMO_BISTRO_ID}/create`, createBody());
    expect(joined.status).toBe(201);
    const entryId = (JSON.parse(joined.body) as { _id: string })._id;

    const stream = session.request({ ':method': 'GET', ':path': `/api${dinerStreamPath(entryId)}?lng=pt`, accept: 'text/event-stream' });
    let received = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (received += chunk));
    const until = async (text: string) => {
      const deadline = Date.now() + 15_000;
      while (!received.includes(text)) {
        if (Date.now() > deadline) throw new Error(`the stream never said ${text}; it said:\n${received}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await until('"status":"active"');

      const login = await h2request(session, 'POST', '/api/host/login', { email: BISTRO_HOST, password: DEMO_PASSWORD });
      expect(login.status).toBe(200);
      const setCookie = login.headers['set-cookie'] ?? [];
      const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie]).map((c) => c.split(';')[0]).join('; ');
      const called = await h2request(session, 'POST', `/api/host/venues/${DEMO_BISTRO_ID}/entries/${entryId}/call`, undefined, cookie);
      expect(called.status).toBe(200);

      // Unbuffered: the call reaches the open stream while the stream stays open.
      await until('"status":"called"');
      expect(stream.closed).toBe(false);
    } finally {
      stream.close();
    }
  });

  it("keeps a venue on one instance: diner pages' `?venue=`, the console's path, joins and the host's changes", async () => {
    const joined = await h2request(session, 'POST', `/api/waitlists/${DEMO_BISTRO_ID}/create`, createBody());
    expect(joined.status).toBe(201);
    const entryId = (JSON.parse(joined.body) as { _id: string })._id;
    const login = await h2request(session, 'POST', '/api/host/login', { email: BISTRO_HOST, password: DEMO_PASSWORD });
    const setCookie = login.headers['set-cookie'] ?? [];
    const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie]).map((c) => c.split(';')[0]).join('; ');

    const open = (headers: http2.OutgoingHttpHeaders) =>
      new Promise<http2.ClientHttp2Stream>((resolve, reject) => {
        const stream = session.request({ ':method': 'GET', accept: 'text/event-stream', ...headers });
        stream.setEncoding('utf8');
        stream.once('data', () => resolve(stream)); // the snapshot: the stream is open on its instance
        stream.once('error', reject);
      });
    // Ten pages of the same party (as from ten phones) and the console: at random, all eleven on
    // the same one of two instances would happen once in a thousand runs.
    const streams = await Promise.all([
      ...Array.from({ length: 10 }, () => open({ ':path': `/api${dinerStreamPath(entryId)}?lng=pt&venue=${DEMO_BISTRO_ID}` })),
      open({ ':path': `/api/host/venues/${DEMO_BISTRO_ID}/events`, cookie }),
    ]);
    try {
      // The changes made to the venue go where its screens are (docs/deploy.md, a venue on one instance).
      const before = await Promise.all(servers.map((s) => venueChanges(s.url)));
      const called = await h2request(session, 'POST', `/api/host/venues/${DEMO_BISTRO_ID}/entries/${entryId}/call`, undefined, cookie);
      expect(called.status).toBe(200);
      for (let i = 0; i < 4; i++)
        expect((await h2request(session, 'POST', `/api/waitlists/${DEMO_BISTRO_ID}/create`, createBody())).status).toBe(201);
      const open = await Promise.all(servers.map((s) => openStreams(s.url)));
      expect(open.map((o) => o.diner).sort()).toEqual([0, 10]);
      const home = open.findIndex((o) => o.diner === 10);
      expect(open[home]?.host).toBe(1);
      const after = await Promise.all(servers.map((s) => venueChanges(s.url)));
      const answered = after.map((a, i) => ({ joins: a.joins - before[i]!.joins, calls: a.calls - before[i]!.calls }));
      expect(answered[home]).toEqual({ joins: 4, calls: 1 });
      expect(answered[1 - home]).toEqual({ joins: 0, calls: 0 });
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

/** The joins and calls an instance answered, from its own /metrics (plugins/metrics.ts: requests by route pattern). */
async function venueChanges(base: string): Promise<{ joins: number; calls: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const count = (route: RegExp) =>
    [...text.matchAll(/^vez_http_request_duration_seconds_count\{([^}]*)\} (\d+)$/gm)]
      .filter((m) => /method="POST"/.test(m[1]!) && route.test(m[1]!))
      .reduce((n, m) => n + Number(m[2]), 0);
  return { joins: count(/route="\/api\/waitlists\/[^"]+\/create"/), calls: count(/route="\/api\/host\/venues\/[^"]+\/call"/) };
}

/** The streams an instance holds, from its own /metrics (plugins/metrics.ts). */
async function openStreams(base: string): Promise<{ diner: number; host: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const read = (kind: string) => Number(new RegExp(`^vez_open_streams\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { diner: read('diner'), host: read('host') };
}
