import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../../test/fixtures.js';
import { appOnStore, seededStore, useTestApp } from '../../../test/harness.js';
import { sqliteStore, stores } from '../../../test/stores.js';

describe.each(stores)('GET /api/health on $name', (store) => {
  const t = useTestApp(store);

  it('answers ok and names the store while the store answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', store: store.name });
  });

  it('answers liveness without asking the store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('has no bare benchmark route unless BENCH_BARE_ROUTE is set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/bench/bare' });
    expect(res.statusCode).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).toContain('/api/health');
  });
});

const redisUrl = /^rediss?:\/\//.test(process.env.REDIS_URL ?? '') ? process.env.REDIS_URL : undefined;
if (!redisUrl) process.stderr.write('\n[health] Redis readiness tests NOT RUN: REDIS_URL is not set.\n');

describe.runIf(redisUrl)('GET /api/health on an instance that shares events through Redis', () => {
  it('is ready while Redis answers, and 503 when it does not (live all the same)', async () => {
    const db = await sqliteStore.open();
    const up = await appOnStore(db, { REDIS_URL: redisUrl! });
    // Nothing listens on port 1: the instance cannot reach its Redis.
    const down = await appOnStore(db, { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const ok = await up.inject({ method: 'GET', url: '/api/health' });
      expect([ok.statusCode, ok.json()]).toEqual([200, { status: 'ok', store: 'sqlite', redis: 'ok' }]);
      const gone = await down.inject({ method: 'GET', url: '/api/health' });
      expect([gone.statusCode, gone.json()]).toEqual([503, { status: 'unavailable', store: 'sqlite', redis: 'unavailable' }]);
      expect((await down.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await up.close();
      await down.close();
      await db.close();
    }
  });
});

describe('GET /api/health when the store is gone', () => {
  it('answers 503 unavailable instead of ok', async () => {
    const db = await sqliteStore.open();
    await db.close();
    const app = await appOnStore(db);
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', store: 'sqlite' });
    } finally {
      await app.close();
    }
  });

  it('adds the bare route only with BENCH_BARE_ROUTE=1 in the demo, whatever NODE_ENV says (docs/security.md)', async () => {
    const db = await sqliteStore.open();
    const demo = await appOnStore(db, { BENCH_BARE_ROUTE: '1', DEMO: '1', NODE_ENV: 'production' });
    const plain = await appOnStore(db, { BENCH_BARE_ROUTE: '1', NODE_ENV: 'development' });
    try {
      expect((await demo.inject({ method: 'GET', url: '/api/bench/bare' })).json()).toEqual({ ok: true });
      expect((await plain.inject({ method: 'GET', url: '/api/bench/bare' })).statusCode).toBe(404);
    } finally {
      await demo.close();
      await plain.close();
      await db.close();
    }
  });
});

describe('GET /api/health while the instance drains (plugins/drain.ts, docs/deploy.md)', () => {
  it('readiness fails first; reads go back to the proxy (503), writes are served; every answer closes its connection', async () => {
    const db = await seededStore(sqliteStore);
    const app = await appOnStore(db);
    try {
      const draining = app.drain.drain();
      const ready = await app.inject({ method: 'GET', url: '/api/health' });
      expect([ready.statusCode, ready.json()]).toEqual([503, { status: 'draining', store: 'sqlite' }]);
      expect(ready.headers.connection).toBe('close');
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);

      const read = await app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
      expect(read.statusCode).toBe(503);
      expect(read.json()).toMatchObject({ code: 'SERVER_RESTARTING' });
      expect(read.headers['retry-after']).toBe('1');

      const write = await postJoin({ app });
      expect(write.statusCode).toBe(201);
      expect(write.headers.connection).toBe('close');
      await draining;
    } finally {
      await app.close();
      await db.close();
    }
  });
});
