import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, appOnStore, startTestApp } from '../../../test/harness.js';
import { sqliteStore, stores } from '../../../test/stores.js';

describe.each(stores)('GET /api/health on $name', (store) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(store);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers ok and names the store while the store answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', store: store.name });
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

  it('adds the bare route only with BENCH_BARE_ROUTE=1, outside production', async () => {
    const db = await sqliteStore.open();
    const on = await appOnStore(db, { BENCH_BARE_ROUTE: '1', NODE_ENV: 'development' });
    const prod = await appOnStore(db, { BENCH_BARE_ROUTE: '1', NODE_ENV: 'production' });
    try {
      expect((await on.inject({ method: 'GET', url: '/api/bench/bare' })).json()).toEqual({ ok: true });
      expect((await prod.inject({ method: 'GET', url: '/api/bench/bare' })).statusCode).toBe(404);
    } finally {
      await on.close();
      await prod.close();
      await db.close();
    }
  });
});
