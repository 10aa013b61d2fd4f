import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { type SseClient, openSse } from '../../../test/sse-client.js';

import { stores } from '../../../test/stores.js';

const PER_ENTRY = 2;
const PER_ADDRESS = 4;

/** docs/security.md: open streams are capped per entry and per client address; a closed one frees its slot. */
describe.each(stores)('real-time stream caps on $name', (store) => {
  // TRUST_PROXY=1: each stream names its client address in X-Forwarded-For, as a proxy would.
  const t = useTestApp(
    store,
    { SSE_MAX_STREAMS_PER_ENTRY: String(PER_ENTRY), SSE_MAX_STREAMS_PER_ADDRESS: String(PER_ADDRESS), TRUST_PROXY: '1' },
    { listen: true },
  );
  const open: SseClient[] = [];
  afterAll(() => {
    for (const s of open) s.close();
  });

  const join = async () => (await joinParty(t, {}, { remoteAddress: '10.50.0.1' })).id;
  const shareIdOf = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json().waitlist.shareId as string;
  const stream = async (path: string, address: string, headers: Record<string, string> = {}) => {
    const s = await openSse(`${t.baseUrl}/api${path}`, { 'x-forwarded-for': address, ...headers });
    open.push(s);
    return s;
  };
  /** Opens until one is refused (a freed slot is counted back once the server has seen the close). */
  const eventually = async (path: string, address: string, headers: Record<string, string> = {}): Promise<SseClient> => {
    for (let i = 0; i < 100; i++) {
      const s = await stream(path, address, headers);
      if (s.status === 200) return s;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the slot was never freed');
  };

  it(`at most ${PER_ENTRY} streams per entry (own and share link together); the next answers 429 with a message`, async () => {
    const id = await join();
    const own = await stream(`/waitlists/${id}/events`, '10.60.0.1');
    const shared = await stream(`/waitlists/${await shareIdOf(id)}/events`, '10.60.0.2');
    expect([own.status, shared.status]).toEqual([200, 200]);
    await own.next();
    const third = await stream(`/waitlists/${id}/events`, '10.60.0.3');
    expect(third.status).toBe(429);
    const body = JSON.parse(third.raw());
    expect(body).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(body.message).toMatch(/too many live updates/i);
    // Another entry is not affected.
    expect((await stream(`/waitlists/${await join()}/events`, '10.60.0.3')).status).toBe(200);
    own.close();
    const again = await eventually(`/waitlists/${id}/events`, '10.60.0.3');
    await again.next();
  });

  it(`at most ${PER_ADDRESS} streams per client address, diner and host streams together`, async () => {
    const address = '10.70.0.1';
    const ids = await Promise.all(Array.from({ length: PER_ADDRESS + 1 }, join));
    const streams = [];
    for (const id of ids.slice(0, PER_ADDRESS)) streams.push(await stream(`/waitlists/${id}/events`, address));
    expect(streams.map((s) => s.status)).toEqual(Array(PER_ADDRESS).fill(200));
    const refused = await stream(`/waitlists/${ids[PER_ADDRESS]}/events`, address);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.raw()).message).toMatch(/from this network/i);
    const cookie = await t.staffCookie();
    const host = await stream(`/host/venues/${DEMO_BISTRO_ID}/events`, address, { cookie });
    expect(host.status).toBe(429);
    // Another address still opens.
    expect((await stream(`/waitlists/${ids[PER_ADDRESS]}/events`, '10.70.0.2')).status).toBe(200);
    streams[0]!.close();
    const hostAgain = await eventually(`/host/venues/${DEMO_BISTRO_ID}/events`, address, { cookie });
    await hostAgain.next();
  });
});
