import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { signUp } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';

const MAX = 3;

/** docs/decisions/026: a diner account keeps its newest USER_EVENTS_MAX_PER_USER events, no more. */
describe.each(stores)('user events per account on $name', (store) => {
  const t = useTestApp(store, { USER_EVENTS_MAX_PER_USER: String(MAX) });

  const record = (cookie: string, n: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      headers: { cookie },
      payload: { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-login', eventBody: { data: { n } } },
    });
  const eventsOf = async (userId: string) =>
    (await t.db.kysely.selectFrom('user_events').select('event_body').where('user_id', '=', userId).orderBy('created_at').execute()).map(
      (e) => (JSON.parse(e.event_body) as { data: { n: number } }).data.n,
    );
  const userOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/product-user', headers: { cookie } })).json()._id as string;

  it(`keeps the newest ${MAX} events of each account; every event is still accepted; another account keeps its own`, async () => {
    const cookie = await signUp(t, '+5521998764001');
    const other = await signUp(t, '+5521998764002');
    expect((await record(other, 100)).statusCode).toBe(201);
    for (let n = 1; n <= 7; n++) {
      t.clock.now += 1_000;
      expect((await record(cookie, n)).statusCode).toBe(201);
    }
    expect(await eventsOf(await userOf(cookie))).toEqual([5, 6, 7]);
    expect(await eventsOf(await userOf(other))).toEqual([100]);
  });
});
