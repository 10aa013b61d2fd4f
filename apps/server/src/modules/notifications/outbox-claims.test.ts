import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { seededStore } from '../../../test/harness.js';
import { type TestStore, stores } from '../../../test/stores.js';
import type { Db } from '../../db/connect.js';
import { runWriteTransaction } from '../../db/write-batch.js';
import type * as Messages from './messages.repository.js';
import { type Notifier, createNotifier } from './notifier.js';
import { createOutboxProvider } from './providers.js';

// Every claim of the outbox, counted (the statement that marks its due messages sent).
const claims = vi.hoisted(() => ({ n: 0 }));
vi.mock('./messages.repository.js', async (original) => {
  const actual = await original<typeof Messages>();
  return {
    ...actual,
    markDueSentByOutbox: (...args: Parameters<typeof actual.markDueSentByOutbox>) => {
      claims.n += 1;
      return actual.markDueSentByOutbox(...args);
    },
  };
});

// The outbox (the demo's provider, the benchmarks') is claimed when a message may wait there, not on
// every round of the worker (docs/decisions/065-outbox-claimed-when-something-waits.md).
describe.each(stores)('the outbox is claimed when something waits, on $name', (store: TestStore) => {
  let db: Db;
  let notifier: Notifier;
  let seq = 0;
  const now = Date.now();
  const statusOf = async (id: string | undefined) =>
    (await db.kysely.selectFrom('messages').select('status').where('id', '=', id!).executeTakeFirst())?.status;
  /**
   * Until the worker is quiet: the fake clock on past every look (100 ms after its message) and
   * every ride of the batch (100 ms), 20 ms at a time, and no round running (the store's I/O is
   * real: a round may take several turns of the event loop).
   */
  const settle = async () => {
    for (let elapsed = 0; elapsed < 60_000; elapsed += 20) {
      await vi.advanceTimersByTimeAsync(20);
      const idle = await Promise.race([
        notifier.idle().then(() => true),
        new Promise<boolean>((resolve) => setImmediate(() => resolve(false))),
      ]);
      if (idle && elapsed >= 300) return;
    }
    throw new Error('the worker never went quiet');
  };
  const message = () => ({ channel: 'sms' as const, to: '+5511987650020', body: 'Sua vez', idempotencyKey: `test:outbox:${seq++}` });

  beforeAll(async () => {
    db = await seededStore(store, now);
  });
  afterAll(async () => {
    await db.close();
  });
  beforeEach(async () => {
    const outbox = createOutboxProvider();
    notifier = createNotifier({
      db,
      providers: { sms: outbox, email: outbox, push: outbox },
      now: () => now,
      log: pino({ level: 'silent' }),
      reporter: { report: () => {}, flush: async () => {} },
      enabled: true,
      intervalMs: 3_600_000,
      maxAttempts: 3,
      retentionMs: 3_600_000,
    });
    notifier.start();
    await notifier.drain();
    claims.n = 0;
    // The worker's look after a message and the batch's wait to ride, driven by the test.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await notifier.stop();
  });

  it('a message queued and sent after its request: the look 100 ms later claims nothing more', async () => {
    const id = await runWriteTransaction(db, (trx) => notifier.enqueue(trx, message()));
    notifier.kickIfQueued();
    await settle();
    expect(await statusOf(id)).toBe('sent');
    expect(claims.n).toBe(1);
  });

  it('a claim that ran before the message committed missed it: the look claims again and sends it', async () => {
    let id: string | undefined;
    await db.kysely.transaction().execute(async (trx) => {
      id = await notifier.enqueue(trx, message());
      // On PostgreSQL a claim beside the open transaction, done before it commits, cannot see the
      // message (SQLite has one connection: every claim comes after the commit).
      if (store.name === 'postgres') {
        notifier.kickIfQueued();
        await notifier.idle();
        expect(claims.n).toBe(1);
      }
    });
    await settle();
    expect(await statusOf(id)).toBe('sent');
  });

  it('a message whose transaction rolled back: once its look has claimed, the next message takes one claim', async () => {
    await expect(
      runWriteTransaction(db, async (trx) => {
        await notifier.enqueue(trx, message());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await settle();
    const after = claims.n;
    const id = await runWriteTransaction(db, (trx) => notifier.enqueue(trx, message()));
    notifier.kickIfQueued();
    await settle();
    expect(await statusOf(id)).toBe('sent');
    expect(claims.n - after).toBe(1);
  });
});
