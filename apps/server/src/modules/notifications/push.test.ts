import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { startTestApp, useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { erasePersonalDataEndedBefore } from '../queue/index.js';

/** A local push service (RFC 8030): answers 201, or the next status queued; keeps what it got. */
async function startPushService() {
  const received: { path: string; headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(statuses.shift() ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, statuses, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291). */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
}

describe.each(stores)('browser push on $name (docs/product.md §8)', (store) => {
  let push: Awaited<ReturnType<typeof startPushService>>;
  beforeAll(async () => {
    push = await startPushService();
  });
  afterAll(async () => push.close());
  const t = useTestApp(store);

  const join = async () => {
    const { id } = await joinParty(t);
    const shareId = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json().waitlist.shareId as string;
    return { id, shareId };
  };
  const subscribe = (id: string, keys: ReturnType<typeof browserKeys>, path = `/send/${randomBytes(6).toString('hex')}`) =>
    t.app.inject({
      method: 'POST',
      url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push`,
      payload: { subscription: { endpoint: `${push.url}${path}`, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
    });
  const staff = hostApi(t);
  const host = (path: string, payload?: object) => staff.post(`/entries${path}`, payload);
  /** What the push service got for one subscription path, decrypted with an independent RFC 8291 implementation. */
  const decrypted = (path: string, keys: ReturnType<typeof browserKeys>) =>
    push.received
      .filter((r) => r.path === path)
      .map((r) => JSON.parse(ece.decrypt(r.body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString('utf8')));

  it('a call arrives as an encrypted notification that opens the position page, signed with the published VAPID key', async () => {
    const { id } = await join();
    const keys = browserKeys();
    const path = `/send/${id}`;
    expect((await subscribe(id, keys, path)).statusCode).toBe(201);
    expect((await host(`/${id}/call`)).statusCode).toBe(200);
    await t.app.notifier.drain();
    const [notification] = decrypted(path, keys);
    expect(notification).toMatchObject({ title: 'Bistrô Demo', url: `http://localhost:3000/waitlist/${id}` });
    // The notification keeps its accents; the SMS of the same call goes without (docs/product.md §8).
    expect(notification.body).toContain('sua vez! Vá à recepção em até 10 min.');
    expect((await outbox(t)).find((m) => m.body.includes(`/waitlist/${id} `) && m.body.includes('sua vez!'))?.body).toContain(
      'sua vez! Va à recepcao em até 10 min.',
    );
    const got = push.received.find((r) => r.path === path)!;
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    const { publicKey } = (await t.app.inject({ method: 'GET', url: '/api/push/key' })).json();
    expect(got.headers.authorization).toContain(`k=${publicKey}`);
    expect(got.headers.ttl).toBeDefined();
  });

  it('a staff message and getting close arrive too; nothing without a subscription', async () => {
    const { id } = await join();
    const keys = browserKeys();
    const path = `/send/m-${id}`;
    await subscribe(id, keys, path);
    await host(`/${id}/messages`, { text: 'Faltam 5 minutos.' });
    await t.app.notifier.drain();
    expect(decrypted(path, keys).map((n) => n.body)).toEqual(['Faltam 5 minutos.']);
    const before = push.received.length;
    const other = await join();
    await host(`/${other.id}/messages`, { text: 'Oi' });
    await t.app.notifier.drain();
    expect(push.received.length).toBe(before);
  });

  it('own link only: a shared link gets 403; a malformed subscription 422; unsubscribing removes it', async () => {
    const { id, shareId } = await join();
    const keys = browserKeys();
    expect((await subscribe(shareId, keys)).statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push`,
      payload: { subscription: { endpoint: 'javascript:alert(1)', keys: { p256dh: keys.p256dh, auth: keys.auth } } },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe('subscription.endpoint');
    await subscribe(id, keys);
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push` });
    expect(removed.json()).toEqual({ removed: 1 });
  });

  it('a subscription the push service says is gone is dropped; subscriptions go with the personal data', async () => {
    const { id } = await join();
    const keys = browserKeys();
    await subscribe(id, keys);
    push.statuses.push(410);
    await host(`/${id}/call`);
    await t.app.notifier.drain();
    const left = await t.db.kysely.selectFrom('push_subscriptions').select('id').where('entry_id', '=', id).execute();
    expect(left).toEqual([]);
    const kept = await join();
    await subscribe(kept.id, keys);
    await host(`/${kept.id}/seat`);
    await erasePersonalDataEndedBefore(t.db.kysely, t.clock.now + 1, t.clock.now);
    expect(await t.db.kysely.selectFrom('push_subscriptions').select('id').where('entry_id', '=', kept.id).execute()).toEqual([]);
  });
});

/** A push service that answers every request with a redirect to `location`. */
async function startRedirectingService(status: () => number, location: string) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status(), { location }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(stores)('push follows no redirects on $name (docs/security.md)', (store) => {
  let target: Awaited<ReturnType<typeof startPushService>>;
  let redirecting: Awaited<ReturnType<typeof startRedirectingService>>;
  const statuses = [301, 302, 307];
  let next = 0;
  beforeAll(async () => {
    target = await startPushService();
    redirecting = await startRedirectingService(() => statuses[next++ % statuses.length]!, `${target.url}/stolen`);
  });
  afterAll(async () => {
    await redirecting.close();
    await target.close();
  });
  const t = useTestApp(store);
  const host = hostApi(t);

  it.each(statuses)('a push service answering %i is a failed push; the address it names is never asked', async () => {
    const { id } = await joinParty(t);
    const keys = browserKeys();
    const sub = await t.app.inject({
      method: 'POST',
      url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push`,
      payload: { subscription: { endpoint: `${redirecting.url}/send/${id}`, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
    });
    expect(sub.statusCode).toBe(201);
    const call = await host.post(`/entries/${id}/call`);
    expect(call.statusCode).toBe(200);
    await t.app.notifier.drain();
    expect(target.received).toEqual([]);
    const pushed = await t.db.kysely
      .selectFrom('messages')
      .select(['status', 'error'])
      .where('channel', '=', 'push')
      .where('recipient', '=', id)
      .execute();
    expect(pushed).toEqual([{ status: 'failed', error: expect.stringContaining('redirect') }]);
  });
});

describe('browser push outside the demo, even with NODE_ENV=production (docs/security.md)', () => {
  it('takes subscriptions only for the allowed push services, over https', async () => {
    const t = await startTestApp(stores[0]!, {
      NODE_ENV: 'production',
      DEMO: '0',
      PUBLIC_BASE_URL: 'https://vez.example',
      COOKIE_SECRET: 'x'.repeat(40),
    });
    try {
      const { id } = await joinParty(t);
      const keys = browserKeys();
      const to = (endpoint: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/push`,
          payload: { subscription: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } },
        });
      const inside = await to('http://127.0.0.1:6379/x');
      expect(inside.statusCode).toBe(422);
      expect(inside.json().field).toBe('subscription.endpoint');
      expect((await to('https://evil.example/fcm.googleapis.com')).statusCode).toBe(422);
      expect((await to('https://fcm.googleapis.com/fcm/send/abc')).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
