import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, postJoin } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { signUp } from '../../test/identity.js';
import { stores } from '../../test/stores.js';
import { runRetentionJob } from './retention.js';

const HOUR = 3_600_000;
const PHONE = '+5521998763001';

/**
 * docs/security.md, Retention: personal data outside the entries goes too. A logged-in diner's user
 * events (the join payload: name, phone, email, note) go RETENTION_HOURS after they were recorded;
 * codes, login links and sessions once expired, even when nobody asks for a new code; team
 * invitations RETENTION_HOURS after they were used or expired.
 */
describe.each(stores)('retention of personal data outside entries on $name', (store) => {
  const t = useTestApp(store);

  const options = { retentionHours: 24, openMaxHours: 24 };
  const rows = (table: 'user_events' | 'one_time_codes' | 'passports' | 'user_sessions' | 'staff_invites' | 'staff_sessions') =>
    t.db.kysely.selectFrom(table).selectAll().execute();

  it('deletes user events recorded more than RETENTION_HOURS ago, and expired codes, links and sessions', async () => {
    const start = t.clock.now;
    const cookie = await signUp(t, PHONE, { firstName: 'Ana', lastName: 'Souza' });
    const body = createBody({ customer: { name: 'Ana Souza', phone: PHONE, email: 'ana.souza@example.com' } }, DEMO_BISTRO_ID);
    // The body as it stands: createBody of a whole body is that body.
    const joined = await postJoin(t, body, { headers: { cookie } });
    expect(joined.statusCode).toBe(201);
    const record = (eventBody: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/product-user/event',
        headers: { cookie },
        payload: { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-enter', eventBody },
      });
    expect((await record({ data: body, waitlistId: joined.json()._id })).statusCode).toBe(201);
    t.clock.now = start + 20 * HOUR;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      headers: { cookie },
      payload: { venueId: DEMO_BISTRO_ID, eventType: 'waitlist-login', eventBody: {} },
    });
    expect(login.statusCode).toBe(201);
    expect((await rows('user_events')).map((e) => e.event_type)).toEqual(['waitlist-enter', 'waitlist-login']);
    expect((await rows('one_time_codes')).length).toBeGreaterThan(0);
    expect((await rows('passports')).length).toBeGreaterThan(0);

    // 23 h after the join: everything stays.
    expect(await runRetentionJob(t.app.queueDeps, options, start + 23 * HOUR)).toMatchObject({ userEvents: 0 });
    expect(await rows('user_events')).toHaveLength(2);
    // 25 h after: the join's event (with its payload) went, the login 5 h old stays; the day-old
    // code and the hour-long login link are gone though nobody asked for a new code.
    expect(await runRetentionJob(t.app.queueDeps, options, start + 25 * HOUR)).toMatchObject({ userEvents: 1 });
    const left = await rows('user_events');
    expect(left.map((e) => e.event_type)).toEqual(['waitlist-login']);
    expect(JSON.stringify(left)).not.toContain(PHONE);
    expect(await rows('one_time_codes')).toEqual([]);
    expect(await rows('passports')).toEqual([]);
    // The diner's session lasts 30 days; after it, its row goes too.
    expect(await rows('user_sessions')).toHaveLength(1);
    await runRetentionJob(t.app.queueDeps, options, start + 31 * 24 * HOUR);
    expect(await rows('user_sessions')).toEqual([]);
    expect(await rows('user_events')).toEqual([]);
  });

  it('deletes team invitations used or expired more than RETENTION_HOURS ago, with their emails, and expired staff sessions', async () => {
    const now = t.clock.now;
    const staff = await t.db.kysely.selectFrom('staff').select('id').executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('staff_sessions')
      .values([
        { token_hash: 'expired-session', staff_id: staff.id, created_at: now - 13 * HOUR, expires_at: now - HOUR },
        { token_hash: 'live-session', staff_id: staff.id, created_at: now, expires_at: now + HOUR },
      ])
      .execute();
    const invite = (id: string, at: { expires_at: number; used_at: number | null }) => ({
      id,
      token_hash: `hash-${id}`,
      venue_id: DEMO_BISTRO_ID,
      email: `${id}@example.com`,
      role: 'host' as const,
      created_by: null,
      created_at: now - 100 * HOUR,
      ...at,
    });
    await t.db.kysely
      .insertInto('staff_invites')
      .values([
        invite('used-long-ago', { expires_at: now + HOUR, used_at: now - 30 * HOUR }),
        invite('expired-long-ago', { expires_at: now - 30 * HOUR, used_at: null }),
        invite('used-recently', { expires_at: now + HOUR, used_at: now - 2 * HOUR }),
        invite('expired-recently', { expires_at: now - 2 * HOUR, used_at: null }),
        invite('pending', { expires_at: now + 48 * HOUR, used_at: null }),
      ])
      .execute();
    expect(await runRetentionJob(t.app.queueDeps, options, now)).toMatchObject({ invites: 2 });
    expect((await rows('staff_invites')).map((i) => i.id).sort()).toEqual(['expired-recently', 'pending', 'used-recently']);
    const sessions = (await rows('staff_sessions')).map((s) => s.token_hash);
    expect(sessions).toContain('live-session');
    expect(sessions).not.toContain('expired-session');
  });
});
