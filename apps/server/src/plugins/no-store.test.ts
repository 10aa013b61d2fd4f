import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { hostApi } from '../../test/staff-session.js';
import { stores } from '../../test/stores.js';

/** Personal-data answers are never kept by a cache (docs/security.md). */
describe.each(stores)('Cache-Control: no-store on personal data ($name)', (store) => {
  const t = useTestApp(store);
  let entryId = '';
  beforeAll(async () => {
    const join = await postJoin(t);
    expect(join.statusCode).toBe(201);
    expect(join.headers['cache-control']).toBe('no-store');
    entryId = join.json()._id;
  });

  const staff = hostApi(t);

  it('on the diner answers: position, status, cancel, and their errors', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: `/api/waitlists/${entryId}/position` }),
      await t.app.inject({ method: 'GET', url: `/api/waitlists/${entryId}/position` }), // kept answer
      await t.app.inject({ method: 'GET', url: `/api/waitlists/${entryId}/${DEMO_BISTRO_ID}/status` }),
      await t.app.inject({ method: 'GET', url: '/api/waitlists/AAAAAAAAAAAAAAAAAAAAAA/position' }),
      await t.app.inject({
        method: 'PUT',
        url: `/api/waitlists/${entryId}/${DEMO_BISTRO_ID}/cancel`,
        payload: { logs: { customer: entryId, actionType: 'Remove' }, customer: entryId, cancelReason: 'Customer' },
      }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 404, 200]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('on the host console answers: queue, entries, settings, login', async () => {
    const answers = [
      await staff.get('/entries'),
      await staff.post('/entries', { customer: { name: 'Rui Costa', phone: '+5511912340001' }, partySize: 2 }),
      await staff.get('/settings'),
      await staff.patch('/settings', { settings: { hidePosition: false } }),
      await t.app.inject({ method: 'GET', url: `/api/host/venues/${DEMO_BISTRO_ID}/entries` }), // no session: 401
      await t.app.inject({ method: 'POST', url: '/api/host/login', payload: { email: 'host@bistro.example', password: 'demo1234' } }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 201, 200, 200, 401, 200]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('on the diner stream', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const join = await postJoin(t);
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/waitlists/${join.json()._id}/events`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^no-store\b/);
    controller.abort();
  });

  it('the public venue answers stay cacheable by the browser (not personal data)', async () => {
    const venue = await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
    expect(venue.headers['cache-control'] ?? '').not.toContain('no-store');
  });
});
