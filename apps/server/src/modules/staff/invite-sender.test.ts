import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { BISTRO_HOST, CLUB_DOOR, DEMO_PASSWORD, loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { cookieOf, inviteTokenFromOutbox, teamClient } from '../../../test/team-helpers.js';

// An invitation dies with its sender's membership or role (docs/security.md), on every store.
describe.each(stores)("an invitation and its sender's standing on $name", (store) => {
  const t = useTestApp(store, { LOGIN_MAX_PER_ADDRESS_15_MIN: '1000' });
  let owner: string;
  let call: ReturnType<typeof teamClient>['call'];
  const venue = `/api/host/venues/${DEMO_BISTRO_ID}`;

  /** A second owner of the Bistro, signed in: invited by the demo owner, accepted, then made owner. */
  const secondOwner = async (email: string) => {
    expect((await call('POST', `${venue}/invites`, owner, { email })).statusCode).toBe(201);
    const token = await inviteTokenFromOutbox(t.app, email);
    const accepted = await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'sender-pass-1' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const id = (accepted.json().staff as { _id: string })._id;
    expect((await call('PATCH', `${venue}/staff/${id}`, owner, { role: 'owner' })).statusCode).toBe(200);
    return { id, cookie: cookieOf(accepted) };
  };
  const sendInvite = async (sender: string, email: string) => {
    const res = await call('POST', `${venue}/invites`, sender, { email });
    expect(res.statusCode, res.body).toBe(201);
    return inviteTokenFromOutbox(t.app, email.toLowerCase());
  };
  /** Everything an accept could change: accounts, bindings, sessions, used invitations. */
  const snapshot = async () => ({
    staff: (await t.db.kysely.selectFrom('staff').select(['id', 'password_hash']).orderBy('id').execute()).length,
    bindings: await t.db.kysely.selectFrom('staff_venues').selectAll().orderBy('staff_id').orderBy('venue_id').execute(),
    sessions: (await t.db.kysely.selectFrom('staff_sessions').select('token_hash').execute()).length,
    used: (await t.db.kysely.selectFrom('staff_invites').select('id').where('used_at', 'is not', null).execute()).length,
  });
  const expectRefused = async (token: string, password: string) => {
    const before = await snapshot();
    for (const res of [
      await call('GET', `/api/host/invites/${token}`),
      await call('POST', `/api/host/invites/${token}/accept`, undefined, { password }),
    ]) {
      expect(res.statusCode, res.body).toBe(410);
      expect(res.json()).toMatchObject({ code: 'INVITE_SENDER_NOT_ALLOWED', message: expect.stringMatching(/may no longer invite/) });
      expect(res.cookies.find((c) => c.name === 'vez_staff')).toBeUndefined();
    }
    expect(await snapshot()).toEqual(before);
  };

  beforeAll(async () => {
    ({ call } = teamClient(t));
    owner = await loginCookie(t.app, BISTRO_HOST);
  });

  it('a sender taken off the team: their links are refused with 410 and change nothing, for a new email and an existing account', async () => {
    const sender = await secondOwner('leaving-owner@bistro.example');
    const fresh = await sendInvite(sender.cookie, 'fresh@bistro.example');
    const existing = await sendInvite(sender.cookie, CLUB_DOOR);
    expect((await call('DELETE', `${venue}/staff/${sender.id}`, owner)).statusCode).toBe(204);
    // Dead invitations are no longer listed as pending.
    const pending = (await call('GET', `${venue}/team`, owner)).json().invites as { email: string }[];
    expect(pending.map((i) => i.email)).not.toContain('fresh@bistro.example');
    expect(pending.map((i) => i.email)).not.toContain(CLUB_DOOR);

    await expectRefused(fresh, 'fresh-pass-1');
    await expectRefused(existing, DEMO_PASSWORD);
    expect(await t.db.kysely.selectFrom('staff').select('id').where('email', '=', 'fresh@bistro.example').execute()).toEqual([]);
    const door = await loginCookie(t.app, CLUB_DOOR);
    expect((await call('GET', '/api/host/me', door)).json().venues).toEqual([expect.objectContaining({ _id: DEMO_CLUB_ID })]);
  });

  it('a sender made host: their links are refused with 410; an owner’s own invitation still works', async () => {
    const sender = await secondOwner('stepping-down@bistro.example');
    const theirs = await sendInvite(sender.cookie, 'theirs@bistro.example');
    expect((await call('PATCH', `${venue}/staff/${sender.id}`, owner, { role: 'host' })).statusCode).toBe(200);
    await expectRefused(theirs, 'theirs-pass-1');

    const ours = await sendInvite(owner, 'ours@bistro.example');
    const accepted = await call('POST', `/api/host/invites/${ours}/accept`, undefined, { password: 'ours-pass-1' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().venues).toEqual([expect.objectContaining({ _id: DEMO_BISTRO_ID, role: 'host' })]);
  });
});
