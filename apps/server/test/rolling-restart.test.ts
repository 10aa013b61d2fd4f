import { randomBytes } from 'node:crypto';
import { dinerStreamPath } from '@vez/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody } from './fixtures.js';
import { type GuideNginx, missingForGuideNginx, startGuideNginx } from './guide-nginx.js';
import { type H2EventSource, connectH2, h2request, openH2EventSource } from './h2-client.js';
import { type ServerProcess, freePort, startServerProcess } from './server-process.js';
import { BISTRO_HOST, DEMO_PASSWORD } from './staff-session.js';
import { dropPostgresSchema, postgresUrl } from './stores.js';

const redisUrl = process.env.REDIS_URL?.startsWith('redis://') ? process.env.REDIS_URL : undefined;
const missing = [...missingForGuideNginx(), !postgresUrl && 'DATABASE_URL=postgres://…', !redisUrl && 'REDIS_URL=redis://…'].filter(
  Boolean,
);
if (missing.length > 0) console.warn(`SKIPPED rolling-restart.test.ts: it needs ${missing.join(', ')}; .ci/run provides them`);

/** docs/deploy.md: a page whose stream was cut is live again within this. */
const STREAM_BACK_MS = 2_000;
/** The load: every tick, one join and one read, from clients that never retry. Modest on purpose. */
const TICK_MS = 100;

interface Answer {
  kind: 'join' | 'read';
  status?: number;
  error?: string;
}

/**
 * A position read in an instance's request log: only the proxy sends those, so the instance is
 * taking traffic again (log-urls.ts masks the ids, the path keeps its shape).
 */
const PROXIED_READ = /"url":"\/api\/waitlists\/[^"]*\/position"/;

/**
 * docs/deploy.md "Restarting without an error": two instances behind the guide's nginx (as written
 * there, TLS and HTTP/2), restarted one at a time while diners join, read their place and keep their
 * pages open and a host keeps the console open. No client sees a 5xx or a broken connection, every
 * join answered 201 is in the store, and every stream cut by a restart is live again within 2 s.
 */
describe.skipIf(missing.length > 0)("a rolling restart behind the guide's nginx (PostgreSQL + Redis)", () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const servers: ServerProcess[] = [];
  const ports: number[] = [];
  let env: Record<string, string>;
  let nginx: GuideNginx;

  beforeAll(async () => {
    env = {
      DATABASE_URL: postgresUrl!,
      DATABASE_SCHEMA: schema,
      REDIS_URL: redisUrl!,
      TRUST_PROXY: '1',
      MESSAGE_WORKER: '0',
      RATE_LIMIT_JOINS_PER_10_MIN: '100000',
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000',
    };
    ports.push(await freePort(), await freePort());
    // One after the other: the first creates the schema, migrates and seeds.
    for (const port of ports) servers.push(await startServerProcess({ ...env, PORT: String(port) }));
    nginx = await startGuideNginx(ports.map((p) => `127.0.0.1:${p}`));
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await dropPostgresSchema(schema);
  });

  /** The operator's step (docs/deploy.md): SIGTERM, wait for the exit, start it, wait until it is ready and taking traffic. */
  async function restart(index: number): Promise<void> {
    const leaving = servers[index]!;
    const exited = new Promise<number | null>((resolve) => leaving.child.once('exit', (code) => resolve(code)));
    leaving.child.kill('SIGTERM');
    // Exit code 0 only before its own deadline (main.ts): it drained in time.
    expect(await exited).toBe(0);
    // Its request log says when the proxy sends to it again (no other client knows its port). Twice:
    // nginx's first request to an instance it counted failed is a probe, and until that probe is
    // answered nginx still counts it failed, so stopping the other instance then leaves it no live
    // instance (a 502, "no live upstreams"). It picks the instance for a second request only once
    // the probe has succeeded (docs/deploy.md, "Restarting without an error").
    const back = await startServerProcess({ ...env, LOG_LEVEL: 'info', PORT: String(ports[index]) });
    const proxied = back.untilLogged(PROXIED_READ, undefined, 2);
    servers[index] = back;
    await proxied;
  }

  it('restarting the instances one at a time: no 5xx, no broken connection, no acknowledged join lost, every stream back within 2 s', async () => {
    // A browser per role, each with its HTTP/2 connection to the proxy.
    const [joiner, reader, pages, console_] = await Promise.all([1, 2, 3, 4].map(() => connectH2(nginx.httpsBase)));
    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    const join = async () => {
      try {
        const res = await h2request(joiner!, 'POST', `/api/waitlists/${DEMO_BISTRO_ID}/create`, createBody());
        answers.push({ kind: 'join', status: res.status });
        if (res.status === 201) acknowledged.push((JSON.parse(res.body) as { _id: string })._id);
      } catch (error) {
        answers.push({ kind: 'join', error: String(error) });
      }
    };
    const read = async () => {
      const id = acknowledged[Math.floor(Math.random() * acknowledged.length)]!;
      try {
        answers.push({ kind: 'read', status: (await h2request(reader!, 'GET', `/api/waitlists/${id}/position`)).status });
      } catch (error) {
        answers.push({ kind: 'read', error: String(error) });
      }
    };

    const login = await h2request(console_!, 'POST', '/api/host/login', { email: BISTRO_HOST, password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const setCookie = login.headers['set-cookie'] ?? [];
    const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie]).map((c) => c.split(';')[0]).join('; ');
    // The load joins more parties than the demo venue's cap of waiting ones (200): no cap.
    const uncapped = await h2request(
      console_!,
      'PATCH',
      `/api/host/venues/${DEMO_BISTRO_ID}/settings`,
      { settings: { maxWaitingParties: null } },
      cookie,
    );
    expect(uncapped.status).toBe(200);
    for (let i = 0; i < 6; i++) await join();
    expect(acknowledged).toHaveLength(6);

    // Diner pages as the web app opens them (`?venue=`: a venue's streams on one instance), two as an
    // older page would (spread at random), and the venue's console.
    const streams: H2EventSource[] = [
      ...acknowledged.slice(0, 4).map((id) => openH2EventSource(pages!, `/api${dinerStreamPath(id)}?lng=pt&venue=${DEMO_BISTRO_ID}`)),
      ...acknowledged.slice(4).map((id) => openH2EventSource(pages!, `/api${dinerStreamPath(id)}?lng=pt`)),
      openH2EventSource(console_!, `/api/host/venues/${DEMO_BISTRO_ID}/events`, { cookie }),
    ];
    const inFlight = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    let passed = false;
    try {
      await Promise.all(streams.map((s) => s.whenLive(10_000)));
      const load = setInterval(() => {
        track(join());
        track(read());
      }, TICK_MS);
      try {
        await restart(0);
        await restart(1);
      } finally {
        clearInterval(load);
      }
      await Promise.all([...inFlight]);
      // Every stream cut by the second restart comes back too (measured below, not just awaited).
      await Promise.all(streams.map((s) => s.whenLive(STREAM_BACK_MS + 5_000)));

      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      const kept = await admin.query<{ id: string }>(`SELECT id FROM ${schema}.entries WHERE id = ANY($1)`, [acknowledged]);
      await admin.end();
      const keptIds = new Set(kept.rows.map((r) => r.id));
      const lost = acknowledged.filter((id) => !keptIds.has(id));
      const gaps = streams.flatMap((s) => s.cuts().map((c) => c.backAt! - c.at));
      const figures = {
        requests: answers.length,
        joins: answers.filter((a) => a.kind === 'join').length,
        reads: answers.filter((a) => a.kind === 'read').length,
        streamConnections: streams.reduce((n, s) => n + s.opens(), 0),
        serverErrors: answers.filter((a) => (a.status ?? 0) >= 500).length,
        connectionErrors: answers.filter((a) => a.error).length + streams.reduce((n, s) => n + s.errors().length, 0),
        acknowledgedJoins: acknowledged.length,
        lostJoins: lost.length,
        streamCuts: gaps.length,
        worstStreamGapMs: Math.max(0, ...gaps),
      };
      console.log(`[rolling-restart] ${JSON.stringify(figures)}`);

      expect(answers.filter((a) => a.error || (a.status ?? 0) >= 500)).toEqual([]);
      expect(streams.flatMap((s) => s.errors())).toEqual([]);
      expect(answers.filter((a) => a.status !== (a.kind === 'join' ? 201 : 200))).toEqual([]);
      expect(lost).toEqual([]);
      // Every stream was on the second instance when it restarted (the first one's came to it): each was cut.
      for (const s of streams) expect(s.cuts().length).toBeGreaterThanOrEqual(1);
      expect(figures.worstStreamGapMs).toBeLessThanOrEqual(STREAM_BACK_MS);
      passed = true;
    } finally {
      for (const s of streams) s.close();
      for (const session of [joiner, reader, pages, console_]) session?.close();
      // On a failure, nginx's own account of what happened upstream.
      if (!passed) console.log(`[rolling-restart] nginx error log:\n${await nginx.errorLog()}`);
    }
  }, 120_000);
});
