import { createECDH, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect.js';
import { DEMO_BISTRO_ID, postJoin } from './fixtures.js';
import { appOnStore, seededStore } from './harness.js';
import { sqliteStore } from './stores.js';

/**
 * Production is the default (docs/security.md, Safe defaults; docs/deploy.md): only DEMO (`--demo`)
 * relaxes a rule, whatever NODE_ENV says or omits. `''` is an unset NODE_ENV (its default).
 */
const NODE_ENVS = ['', 'development', 'test', 'production'] as const;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('only the demo relaxes a rule, whatever NODE_ENV says', () => {
  let db: Db;
  beforeAll(async () => {
    db = await seededStore(sqliteStore);
  });
  afterAll(async () => db.close());

  const withApp = async (env: Record<string, string>, run: (app: FastifyInstance) => Promise<void>) => {
    const app = await appOnStore(db, env);
    try {
      await run(app);
    } finally {
      await app.close();
    }
  };

  const unsignedWebhooks = async (app: FastifyInstance) => [
    await app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: FORM,
      payload: new URLSearchParams({ From: '+5511987650001', Body: 'oi' }).toString(),
    }),
    await app.inject({
      method: 'POST',
      url: '/api/sms/status',
      headers: FORM,
      payload: new URLSearchParams({ MessageSid: 'SM0000', MessageStatus: 'delivered' }).toString(),
    }),
  ];

  /** A fresh party of the demo bistro subscribes this browser to `endpoint`. */
  const subscribeTo = async (app: FastifyInstance, endpoint: string) => {
    const joined = await postJoin({ app });
    expect(joined.statusCode).toBe(201);
    const id = joined.json()._id as string;
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const res = await app.inject({
      method: 'POST',
      url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push`,
      payload: {
        subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') } },
      },
    });
    const kept = await db.kysely.selectFrom('push_subscriptions').select('id').where('entry_id', '=', id).execute();
    return { res, kept: kept.length };
  };

  describe.each(NODE_ENVS)('without --demo, NODE_ENV=%j', (NODE_ENV) => {
    const env = { NODE_ENV, DEMO: '' };

    it('refuses unsigned SMS webhooks (no SMS_AUTH_TOKEN) with 403', async () => {
      await withApp(env, async (app) => {
        for (const res of await unsignedWebhooks(app)) {
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/SMS_AUTH_TOKEN/) });
        }
      });
    });

    it('refuses a push endpoint outside PUSH_HOSTS, naming the field, and keeps nothing', async () => {
      await withApp(env, async (app) => {
        for (const endpoint of ['https://push.example.net/send/abc', 'http://127.0.0.1:6379/x', 'http://fcm.googleapis.com/fcm/send/abc']) {
          const { res, kept } = await subscribeTo(app, endpoint);
          expect(res.statusCode).toBe(422);
          expect(res.json().field).toBe('subscription.endpoint');
          expect(kept).toBe(0);
        }
        expect((await subscribeTo(app, 'https://fcm.googleapis.com/fcm/send/abc')).res.statusCode).toBe(201);
      });
    });

    it('has no dev outbox and no bare benchmark route', async () => {
      await withApp({ ...env, BENCH_BARE_ROUTE: '1' }, async (app) => {
        expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
        expect((await app.inject({ method: 'GET', url: '/api/bench/bare' })).statusCode).toBe(404);
      });
    });
  });

  describe.each(NODE_ENVS)('with --demo (DEMO=1), NODE_ENV=%j', (NODE_ENV) => {
    const env = { NODE_ENV, DEMO: '1' };

    it('takes unsigned SMS webhooks (the outbox has no provider to sign them)', async () => {
      await withApp(env, async (app) => {
        const [inbound, status] = await unsignedWebhooks(app);
        expect(inbound!.statusCode).toBe(200);
        expect(inbound!.headers['content-type']).toMatch(/^text\/xml/);
        expect(status!.statusCode).toBe(204);
      });
    });

    it('takes a push endpoint on any host', async () => {
      await withApp(env, async (app) => {
        for (const endpoint of ['https://push.example.net/send/abc', 'http://127.0.0.1:6379/x']) {
          const { res, kept } = await subscribeTo(app, endpoint);
          expect(res.statusCode).toBe(201);
          expect(kept).toBe(1);
        }
      });
    });

    it('has the dev outbox and, with BENCH_BARE_ROUTE=1, the bare benchmark route', async () => {
      await withApp({ ...env, BENCH_BARE_ROUTE: '1' }, async (app) => {
        expect((await app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
        expect((await app.inject({ method: 'GET', url: '/api/bench/bare' })).json()).toEqual({ ok: true });
      });
    });
  });
});
