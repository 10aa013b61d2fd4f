import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nextPhone, postJoin } from '../../../test/fixtures.js';
import { type FakeTwilio, startFakeTwilio, twilioEnv } from '../../../test/identity.js';
import { appOnStore, seededStore } from '../../../test/harness.js';
import { type TestStore, stores } from '../../../test/stores.js';
import type { Db } from '../../db/connect.js';
import type { ErrorReporter } from '../../plugins/reporter.js';
import { claimDueMessages } from './messages.repository.js';
import { LEASE_MS } from './notifier.js';

describe.each(stores)('durable message queue on $name', (store: TestStore) => {
  let db: Db;
  let twilio: FakeTwilio;
  const clock = { now: Date.now() };
  const apps: FastifyInstance[] = [];
  const reported: { error: unknown; context?: Record<string, string> }[] = [];
  const logs: string[] = [];
  const reporter: ErrorReporter = { report: (error, context) => void reported.push({ error, context }), flush: async () => {} };

  /** An app instance on the shared store; `worker: false` is an instance that queues but never sends. */
  async function start(worker = true): Promise<FastifyInstance> {
    const env = { LOG_LEVEL: 'warn', MESSAGE_WORKER: worker ? '1' : '0', ...twilioEnv(twilio.url) };
    const app = await appOnStore(db, env, { reporter, now: () => clock.now, logStream: { write: (line) => void logs.push(line) } });
    await app.ready();
    apps.push(app);
    return app;
  }
  const messages = () => db.kysely.selectFrom('messages').selectAll().orderBy('id').execute();
  const join = (app: FastifyInstance, phone = nextPhone()) => postJoin({ app }, { customer: { name: 'Ana Souza', phone } });

  beforeAll(async () => {
    db = await seededStore(store, clock.now);
    twilio = await startFakeTwilio();
  });
  afterAll(async () => {
    await twilio.close();
    await db.close();
  });
  beforeEach(async () => {
    await db.kysely.deleteFrom('messages').execute();
    twilio.requests.length = 0;
    twilio.failures.length = 0;
    reported.length = 0;
    logs.length = 0;
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it('a stop between the join commit and the send still sends the SMS once, after restart', async () => {
    const first = await start(false);
    const joined = await join(first);
    expect(joined.statusCode).toBe(201);
    expect(await messages()).toMatchObject([{ status: 'pending', attempts: 0, idempotency_key: `join:${joined.json()._id}` }]);
    await first.close();
    expect(twilio.requests).toHaveLength(0);

    const second = await start();
    await second.notifier.drain();
    expect(twilio.requests).toHaveLength(1);
    expect(twilio.requests[0]?.form.get('Body')).toContain(`/waitlist/${joined.json()._id}`);
    await second.close();
    const third = await start();
    await third.notifier.drain();
    expect(twilio.requests).toHaveLength(1);
    expect(await messages()).toMatchObject([
      { status: 'sent', attempts: 1, provider: 'twilio', provider_id: expect.stringMatching(/^SM/) },
    ]);
  });

  it('a worker that died while sending: its lease runs out, then another sends the message once', async () => {
    const queuer = await start(false);
    await join(queuer);
    // The dead worker's claim: the row is "sending" under a lease nobody will settle.
    expect(await claimDueMessages(db.kysely, db.dialect, clock.now, LEASE_MS, 10)).toHaveLength(1);
    const survivor = await start();
    await survivor.notifier.drain();
    expect(twilio.requests).toHaveLength(0);
    clock.now += LEASE_MS + 1;
    await survivor.notifier.drain();
    await survivor.notifier.drain();
    expect(twilio.requests).toHaveLength(1);
    expect(await messages()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('two instances draining one queue send every message exactly once', async () => {
    const queuer = await start(false);
    const phones = Array.from({ length: 25 }, () => nextPhone());
    for (const phone of phones) expect((await join(queuer, phone)).statusCode).toBe(201);
    const [a, b] = [await start(), await start()];
    await Promise.all([a.notifier.drain(), b.notifier.drain(), a.notifier.drain(), b.notifier.drain()]);
    expect(twilio.requests).toHaveLength(25);
    expect(new Set(twilio.requests.map((r) => r.form.get('To'))).size).toBe(25);
    expect((await messages()).every((m) => m.status === 'sent' && m.attempts === 1)).toBe(true);
  });

  it('retries with exponential backoff until the provider takes the message', async () => {
    const app = await start();
    twilio.failures.push(503, 429);
    await join(app);
    await app.notifier.drain();
    let [row] = await messages();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, error: 'twilio answered 503 code 21211' });
    const firstDelay = (row?.next_attempt_at ?? 0) - clock.now;
    expect(firstDelay).toBeGreaterThanOrEqual(5000);
    expect(firstDelay).toBeLessThan(6000);
    await app.notifier.drain();
    expect(twilio.requests).toHaveLength(1);
    clock.now += firstDelay;
    await app.notifier.drain();
    [row] = await messages();
    const secondDelay = (row?.next_attempt_at ?? 0) - clock.now;
    expect(secondDelay).toBeGreaterThanOrEqual(10_000);
    expect(secondDelay).toBeLessThan(11_000);
    clock.now += secondDelay;
    await app.notifier.drain();
    expect(twilio.requests).toHaveLength(3);
    expect(await messages()).toMatchObject([{ status: 'sent', attempts: 3, error: null }]);
    expect(reported).toHaveLength(0);
  });

  it('a permanent failure is not retried; it is logged and reported without the phone or the text', async () => {
    const app = await start();
    twilio.failures.push(400);
    const phone = nextPhone();
    await join(app, phone);
    await app.notifier.drain();
    clock.now += 3_600_000;
    await app.notifier.drain();
    expect(twilio.requests).toHaveLength(1);
    const [row] = await messages();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, error: 'twilio answered 400 code 21211' });
    expect(reported).toHaveLength(1);
    expect(reported[0]?.context).toMatchObject({ channel: 'sms', provider: 'twilio', messageId: row?.id });
    const text = `${logs.join('\n')}${String(reported[0]?.error)}`;
    expect(logs.some((l) => l.includes('message delivery failed'))).toBe(true);
    expect(text).not.toContain(row?.recipient.slice(-8));
    expect(text).not.toContain('/waitlist/');
  });

  it('gives up after MESSAGE_MAX_ATTEMPTS and reports once', async () => {
    const app = await start();
    twilio.failures.push(...Array(8).fill(500));
    await join(app);
    for (let i = 0; i < 10; i += 1) {
      await app.notifier.drain();
      clock.now += 16 * 60_000;
    }
    expect(twilio.requests).toHaveLength(8);
    expect(await messages()).toMatchObject([{ status: 'failed', attempts: 8 }]);
    expect(reported).toHaveLength(1);
  });

  it('deletes finished messages (phone and text) after the retention period, not before', async () => {
    const app = await start();
    await join(app);
    await app.notifier.drain();
    clock.now += 23 * 3_600_000;
    await app.notifier.drain();
    expect(await messages()).toMatchObject([{ status: 'sent' }]);
    clock.now += 2 * 3_600_000;
    await app.notifier.drain();
    expect(await messages()).toEqual([]);
  });

  it('a message carrying a code keeps it until delivered or finally failed, then only its masked text', async () => {
    const app = await start();
    const secret = (key: string) => ({
      channel: 'sms' as const,
      to: '+5511987650012',
      body: `code 123456 ${key}`,
      safeBody: `code •••••• ${key}`,
      idempotencyKey: `test:${key}`,
    });
    const row = async (key: string) => (await messages()).find((m) => m.idempotency_key === `test:${key}`);
    twilio.failures.push(503, 400);
    await db.kysely.transaction().execute((trx) => app.notifier.enqueue(trx, secret('retried')));
    await app.notifier.drain();
    // A retry still needs the text.
    expect(await row('retried')).toMatchObject({ status: 'pending', body: 'code 123456 retried' });
    await db.kysely.transaction().execute((trx) => app.notifier.enqueue(trx, secret('refused')));
    await app.notifier.drain();
    expect(await row('refused')).toMatchObject({ status: 'failed', body: 'code •••••• refused', safe_body: null });
    clock.now += 6000;
    await app.notifier.drain();
    expect(await row('retried')).toMatchObject({ status: 'sent', body: 'code •••••• retried', safe_body: null });
    expect(twilio.requests.map((r) => r.form.get('Body'))).toEqual(['code 123456 retried', 'code 123456 refused', 'code 123456 retried']);
  });

  it('enqueueing the same cause twice queues one message', async () => {
    const app = await start(false);
    const message = { channel: 'sms' as const, to: '+5511987650009', body: 'x', idempotencyKey: 'test:same' };
    await db.kysely.transaction().execute(async (trx) => {
      await app.notifier.enqueue(trx, message);
      await app.notifier.enqueue(trx, message);
    });
    expect(await messages()).toHaveLength(1);
  });

  it('a message queued in a transaction that rolls back is never sent', async () => {
    const app = await start();
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await app.notifier.enqueue(trx, { channel: 'sms', to: '+5511987650010', body: 'x', idempotencyKey: 'test:rollback' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await app.notifier.drain();
    expect(await messages()).toHaveLength(0);
    expect(twilio.requests).toHaveLength(0);
  });
});
