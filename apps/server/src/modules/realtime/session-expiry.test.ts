import { StreamMessage } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { type SseClient, openSse } from '../../../test/sse-client.js';
import { BISTRO_DOOR, loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { runAdmin } from '../../cli/admin-commands.js';
import { SESSION_TTL_MS } from '../staff/staff.service.js';

// A console stream is authorised at every event and cannot outlive its session (docs/security.md,
// "Staff sessions end everywhere"), on one instance with the in-process bus, on every store.
describe.each(stores)('a console stream and its session on one instance, $name', (store) => {
  const t = useTestApp(store, {}, { listen: true });
  const events = `/api/host/venues/${DEMO_BISTRO_ID}/events`;

  /** A console that had its snapshot; `ended` resolves (performance.now()) when the server ends it. */
  const openConsole = async (cookie: string): Promise<{ client: SseClient; ended: Promise<number> }> => {
    const client = await openSse(`${t.baseUrl}${events}`, { cookie });
    expect(client.status).toBe(200);
    await client.next((m) => m.event === StreamMessage.queue);
    const ended = client
      .next(() => false)
      .then(
        () => Number.NaN,
        () => performance.now(),
      );
    return { client, ended };
  };
  const join = async () => {
    const res = await postJoin(t);
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };

  it('a session that expired while its console was open: the next event is not written, the stream ends', async () => {
    const loggedInAt = t.clock.now;
    const host = await openConsole(await loginCookie(t.app, BISTRO_DOOR));
    // No news says so: only the session's expiry, on the app's clock, which no timer of the stream has reached.
    t.clock.now = loggedInAt + SESSION_TTL_MS + 1;
    const id = await join();
    await host.ended;
    expect(host.client.raw()).not.toContain(id);
  });

  it('a console stream ends by itself when its session expires, with no event', async () => {
    t.clock.now = Date.now();
    const cookie = await loginCookie(t.app, BISTRO_DOOR);
    // The session has 300 ms left when its console opens.
    t.clock.now += SESSION_TTL_MS - 300;
    const opened = performance.now();
    const host = await openConsole(cookie);
    expect((await host.ended) - opened).toBeLessThan(300 + 1_000);
  });

  it('with the in-process bus, a logout closes the console within a second', async () => {
    t.clock.now = Date.now();
    const cookie = await loginCookie(t.app, BISTRO_DOOR);
    const host = await openConsole(cookie);
    expect((await t.app.inject({ method: 'POST', url: '/api/host/logout', headers: { cookie } })).statusCode).toBe(204);
    const answeredAt = performance.now();
    expect((await host.ended) - answeredAt).toBeLessThan(1_000);
  });

  it('the command line without Redis: staff:logout still closes the console within a second (its session is read again)', async () => {
    t.clock.now = Date.now();
    const cookie = await loginCookie(t.app, BISTRO_DOOR);
    const host = await openConsole(cookie);
    const out: string[] = [];
    const code = await runAdmin(['staff:logout', BISTRO_DOOR], {
      db: t.db,
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      prompt: async () => '',
    });
    expect(code, out.join('\n')).toBe(0);
    const endedAt = performance.now();
    expect((await host.ended) - endedAt).toBeLessThan(1_000);
  });
});
