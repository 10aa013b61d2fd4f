import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJoin } from '../../test/fixtures.js';
import { startTestApp, useTestApp } from '../../test/harness.js';
import { type SseClient, openSse } from '../../test/sse-client.js';
import { stores } from '../../test/stores.js';
import { UNCOUNTED_DEFAULTS } from './metrics.js';

// shared/spec/decisions.md §9: `/metrics` in Prometheus's text format, behind METRICS_TOKEN.
const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one series in Prometheus's text format, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !line.startsWith(name)) continue;
    const match = /^([^{\s]+)(?:\{([^}]*)\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('without METRICS_TOKEN', () => {
  it('/metrics answers 404: figures about the traffic are not for everyone', async () => {
    const t = await startTestApp(stores[0]!);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('METRICS_TOKEN') });
    } finally {
      await t.close();
    }
  });
});

describe.each(stores)('/metrics on $name', (store) => {
  const t = useTestApp(store, { METRICS_TOKEN: TOKEN, SSE_HEARTBEAT_SECONDS: '0.1' });
  let base: string;
  const streams: SseClient[] = [];
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
  });

  const scrape = async (authorization = `Bearer ${TOKEN}`) => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });

  it('answers 401 without the token or with another one, and names what is missing', async () => {
    for (const authorization of ['', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer short']) {
      const res = await scrape(authorization);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringContaining('METRICS_TOKEN') });
    }
  });

  it("counts requests by route pattern, the queue's depth, events, sends, open streams and the event loop", async () => {
    const joined = await postJoin(t);
    expect(joined.statusCode).toBe(201);
    const id = joined.json()._id as string;
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).statusCode).toBe(200);
    const stream = await openSse(`${base}/api/waitlists/${id}/events`);
    streams.push(stream);
    await stream.next((m) => m.event === 'position');
    // A message due in an hour waits in the queue (the shared store's depth, whichever instance asks).
    await t.db.kysely
      .insertInto('messages')
      .values({
        id: 'metrics-test-later',
        channel: 'email',
        recipient: 'later@example.com',
        subject: 'Later',
        body: 'Later',
        status: 'pending',
        attempts: 0,
        next_attempt_at: t.clock.now + 3_600_000,
        provider: null,
        provider_id: null,
        error: null,
        idempotency_key: 'metrics-test-later',
        created_at: t.clock.now,
        sent_at: null,
        safe_body: null,
        entry_id: null,
      })
      .execute();
    // The join's SMS goes out right after the join (the demo's outbox): one send counted.
    await t.app.notifier.drain();

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.body;
    const position = { method: 'GET', route: '/api/waitlists/:waitlistId/position', status_code: '200' };
    expect(sample(text, 'vez_http_request_duration_seconds_count', position)).toBeGreaterThanOrEqual(3);
    // The pattern, never the id: one series per route, whatever the traffic.
    expect(text).not.toContain(id);
    expect(sample(text, 'vez_events_published_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'vez_messages_total', { channel: 'sms', outcome: 'sent' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'vez_message_queue_depth', { channel: 'email', status: 'pending' })).toBe(1);
    expect(sample(text, 'vez_message_queue_depth', { channel: 'sms', status: 'pending' })).toBe(0);
    expect(sample(text, 'vez_open_streams', { kind: 'diner' })).toBe(1);
    expect(sample(text, 'vez_open_streams', { kind: 'host' })).toBe(0);
    expect(sample(text, 'vez_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // The descriptors, not a count of every handle: that lists each one a scrape (plugins/metrics.ts).
    expect(sample(text, 'vez_process_open_fds')).toBeGreaterThan(0);
    for (const name of UNCOUNTED_DEFAULTS) expect(text).not.toContain(`# TYPE ${name} `);

    // The stream closes: the gauge follows.
    stream.close();
    await expect.poll(async () => sample((await scrape()).body, 'vez_open_streams', { kind: 'diner' }), { timeout: 10_000 }).toBe(0);
  });
});
