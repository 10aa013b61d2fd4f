import { STAFF_INVITE_TTL_MS } from '@vez/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { BISTRO_HOST, CLUB_HOST, DEMO_PASSWORD, loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { cookieOf, inviteTokenFromOutbox, teamClient } from '../../../test/team-helpers.js';

// Invitations and the team (docs/product.md §9, docs/decisions/023-staff-roles.md), on every store.
describe.each(stores)('the team and its invitations on $name', (store) => {
  const t = useTestApp(store, { LOGIN_MAX_PER_ADDRESS_15_MIN: '1000' });
  let owner: string;
  let call: ReturnType<typeof teamClient>['call'];
  const team = `/api/host/venues/${DEMO_BISTRO_ID}/team`;
  const invites = `/api/host/venues/${DEMO_BISTRO_ID}/invites`;
  const invite = async (email: string) => {
    const res = await call('POST', invites, owner, { email });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().invite._id as string, token: await inviteTokenFromOutbox(t.app, email.toLowerCase()) };
  };
  const staffCount = async () => (await t.db.kysely.selectFrom('staff').select('id').execute()).length;

  beforeAll(async () => {
    ({ call } = teamClient(t));
    owner = await loginCookie(t.app, BISTRO_HOST);
  });

  it('invite → email in the outbox → accept → the host runs the queue but may not edit settings', async () => {
    const res = await call('POST', invites, owner, { email: 'Lia@Bistro.example' });
    expect(res.statusCode).toBe(201);
    expect(res.json().invite).toMatchObject({ email: 'lia@bistro.example', role: 'host' });
    const token = await inviteTokenFromOutbox(t.app, 'lia@bistro.example');
    // Only the token's hash is stored; the stored email keeps no usable link once sent.
    const rows = await t.db.kysely.selectFrom('staff_invites').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    const stored = await t.db.kysely.selectFrom('messages').select('body').where('recipient', '=', 'lia@bistro.example').execute();
    expect(stored.map((m) => m.body).join()).not.toContain(token);

    const info = await call('GET', `/api/host/invites/${token}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ venue: { _id: DEMO_BISTRO_ID }, email: 'lia@bistro.example', role: 'host', hasAccount: false });

    const accepted = await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'lia-secret-1' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().venues).toEqual([expect.objectContaining({ _id: DEMO_BISTRO_ID, role: 'host' })]);
    const lia = await loginCookie(t.app, 'lia@bistro.example', 'lia-secret-1');

    const walkIn = await call('POST', `/api/host/venues/${DEMO_BISTRO_ID}/entries`, lia, createBody());
    expect(walkIn.statusCode).toBe(201);
    const entry = `/api/host/venues/${DEMO_BISTRO_ID}/entries/${walkIn.json().entry._id}`;
    expect((await call('POST', `${entry}/call`, lia)).statusCode).toBe(200);
    expect((await call('POST', `${entry}/seat`, lia)).statusCode).toBe(200);
    expect((await call('GET', `/api/host/venues/${DEMO_BISTRO_ID}/settings`, lia)).statusCode).toBe(200);

    const patch = await call('PATCH', `/api/host/venues/${DEMO_BISTRO_ID}/settings`, lia, { hasMenu: true });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().code).toBe('OWNER_ONLY');
    for (const [method, url] of [
      ['GET', team],
      ['POST', invites],
    ] as const) {
      const res = await call(method, url, lia, method === 'POST' ? { email: 'x@y.example' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('OWNER_ONLY');
    }
    const list = (await call('GET', team, owner)).json();
    expect(list.members).toEqual(
      expect.arrayContaining([
        { _id: expect.any(String), email: BISTRO_HOST, role: 'owner', isYou: true },
        { _id: expect.any(String), email: 'lia@bistro.example', role: 'host', isYou: false },
      ]),
    );
    expect(list.invites.map((i: { email: string }) => i.email)).not.toContain('lia@bistro.example');
  });

  it('a link works once: a second accept answers 410 INVITE_USED and changes nothing', async () => {
    const { token } = await invite('once@bistro.example');
    expect((await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'first-pass' })).statusCode).toBe(200);
    const before = await staffCount();
    for (const res of [
      await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'second-pass' }),
      await call('GET', `/api/host/invites/${token}`),
    ]) {
      expect(res.statusCode).toBe(410);
      expect(res.json().code).toBe('INVITE_USED');
    }
    expect(await staffCount()).toBe(before);
    await loginCookie(t.app, 'once@bistro.example', 'first-pass');
  });

  it('an expired link answers 410 INVITE_EXPIRED, makes no account and leaves the team list', async () => {
    const { token } = await invite('late@bistro.example');
    const before = await staffCount();
    t.clock.now += STAFF_INVITE_TTL_MS + 1;
    try {
      for (const res of [
        await call('GET', `/api/host/invites/${token}`),
        await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'too-late-1' }),
      ]) {
        expect(res.statusCode).toBe(410);
        expect(res.json().code).toBe('INVITE_EXPIRED');
      }
      expect(await staffCount()).toBe(before);
    } finally {
      t.clock.now -= STAFF_INVITE_TTL_MS + 1;
    }
  });

  it('an owner revokes an invitation: its link answers 404 INVITE_NOT_FOUND; a new invitation replaces the old', async () => {
    const first = await invite('maybe@bistro.example');
    const second = await invite('maybe@bistro.example');
    expect((await call('GET', `/api/host/invites/${first.token}`)).json().code).toBe('INVITE_NOT_FOUND');
    const pending = (await call('GET', team, owner)).json().invites as { _id: string; email: string }[];
    expect(pending.filter((i) => i.email === 'maybe@bistro.example').map((i) => i._id)).toEqual([second.id]);

    expect((await call('DELETE', `${invites}/${second.id}`, owner)).statusCode).toBe(204);
    const gone = await call('POST', `/api/host/invites/${second.token}/accept`, undefined, { password: 'whatever-1' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('INVITE_NOT_FOUND');
    expect((await call('DELETE', `${invites}/${second.id}`, owner)).json().code).toBe('INVITE_NOT_FOUND');
  });

  it('an existing account joins only with its own password; a member cannot be invited twice', async () => {
    const { token } = await invite(CLUB_HOST);
    expect((await call('GET', `/api/host/invites/${token}`)).json().hasAccount).toBe(true);
    const wrong = await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' });
    expect((await call('GET', `/api/host/invites/${token}`)).statusCode).toBe(200); // still usable

    const ok = await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: DEMO_PASSWORD });
    expect(ok.statusCode).toBe(200);
    const roles = Object.fromEntries((ok.json().venues as { _id: string; role: string }[]).map((v) => [v._id, v.role]));
    expect(roles).toEqual({ [DEMO_BISTRO_ID]: 'host', [DEMO_CLUB_ID]: 'owner' });

    const again = await call('POST', invites, owner, { email: CLUB_HOST });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'ALREADY_STAFF', field: 'email' });
  });

  it('removing a host ends their sessions and their access; ending sessions signs them out', async () => {
    const { token } = await invite('gone@bistro.example');
    const accepted = await call('POST', `/api/host/invites/${token}/accept`, undefined, { password: 'gone-pass-1' });
    const gone = cookieOf(accepted);
    const second = await loginCookie(t.app, 'gone@bistro.example', 'gone-pass-1');
    const id = (accepted.json().staff as { _id: string })._id;

    const ended = await call('DELETE', `/api/host/venues/${DEMO_BISTRO_ID}/staff/${id}/sessions`, owner);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ended: 2 });
    for (const cookie of [gone, second]) expect((await call('GET', '/api/host/me', cookie)).statusCode).toBe(401);

    const third = await loginCookie(t.app, 'gone@bistro.example', 'gone-pass-1');
    expect((await call('DELETE', `/api/host/venues/${DEMO_BISTRO_ID}/staff/${id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', '/api/host/me', third)).statusCode).toBe(401);
    const back = await loginCookie(t.app, 'gone@bistro.example', 'gone-pass-1');
    expect((await call('GET', `/api/host/venues/${DEMO_BISTRO_ID}/entries`, back)).statusCode).toBe(403);
    const list = (await call('GET', team, owner)).json().members as { email: string }[];
    expect(list.map((m) => m.email)).not.toContain('gone@bistro.example');
    expect((await call('DELETE', `/api/host/venues/${DEMO_BISTRO_ID}/staff/${id}`, owner)).json().code).toBe('STAFF_NOT_FOUND');
  });

  it('a venue keeps an owner: the last owner cannot step down or leave (409 LAST_OWNER); with two, one may', async () => {
    const clubOwner = await loginCookie(t.app, CLUB_HOST);
    const clubTeam = (await call('GET', `/api/host/venues/${DEMO_CLUB_ID}/team`, clubOwner)).json().members as {
      _id: string;
      email: string;
      role: string;
    }[];
    const me = clubTeam.find((m) => m.email === CLUB_HOST)!;
    const door = clubTeam.find((m) => m.role === 'host')!;
    const staff = (id: string) => `/api/host/venues/${DEMO_CLUB_ID}/staff/${id}`;
    for (const res of [await call('PATCH', staff(me._id), clubOwner, { role: 'host' }), await call('DELETE', staff(me._id), clubOwner)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('LAST_OWNER');
    }
    const promoted = await call('PATCH', staff(door._id), clubOwner, { role: 'owner' });
    expect(promoted.json()).toEqual({ member: { _id: door._id, email: door.email, role: 'owner', isYou: false } });
    expect((await call('PATCH', staff(me._id), clubOwner, { role: 'host' })).statusCode).toBe(200);
    // Now a host there: the team is the owners'.
    expect((await call('GET', `/api/host/venues/${DEMO_CLUB_ID}/team`, clubOwner)).json().code).toBe('OWNER_ONLY');
  });

  it('answers 401 without a session and 403 to another venue’s owner', async () => {
    expect((await call('GET', team)).statusCode).toBe(401);
    const res = await call('GET', `/api/host/venues/${DEMO_BISTRO_ID}/team`, await loginCookie(t.app, 'door@clube.example'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    const invited = await call('POST', `/api/host/venues/${DEMO_CLUB_ID}/invites`, owner, { email: 'x@club.example' });
    expect(invited.json().code).toBe('FORBIDDEN');
  });

  it.each([
    ['POST', '/invites', { email: 'not-an-email' }, 422, 'email'],
    ['POST', '/invites', { email: 'a@b.example', role: 'owner' }, 422, 'role'],
    ['POST', '/invites', {}, 422, 'email'],
    ['PATCH', '/staff/000000000000000000000000', { role: 'chef' }, 422, 'role'],
    ['PATCH', '/staff/000000000000000000000000', { role: 'host' }, 404, undefined],
    ['DELETE', '/staff/nobody', undefined, 404, undefined],
    ['DELETE', '/invites/nothing', undefined, 404, undefined],
  ] as const)('%s %s %j answers %i naming the field', async (method, path, payload, status, field) => {
    const res = await call(method, `/api/host/venues/${DEMO_BISTRO_ID}${path}`, owner, payload);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().field).toBe(field);
  });

  it('bad links and bodies answer 4xx, never 5xx', async () => {
    expect((await call('GET', '/api/host/venues/not-a-venue/team', owner)).json().code).toBe('INVALID_VENUEID_FORMAT');
    expect((await call('GET', '/api/host/invites/short')).json().code).toBe('INVITE_NOT_FOUND');
    expect((await call('GET', `/api/host/invites/${'A'.repeat(43)}`)).json().code).toBe('INVITE_NOT_FOUND');
    const { token } = await invite('fields@bistro.example');
    for (const [payload, field] of [
      [{}, 'password'],
      [{ password: 'short' }, 'password'],
      [{ password: 'long-enough', admin: true }, 'admin'],
    ] as const) {
      const res = await call('POST', `/api/host/invites/${token}/accept`, undefined, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().field).toBe(field);
    }
    expect((await call('GET', `/api/host/invites/${token}`)).statusCode).toBe(200);
  });

  it('lists the team routes in the OpenAPI document', async () => {
    const doc = (await call('GET', '/api/docs')).json();
    for (const path of [
      '/api/host/venues/{venueId}/team',
      '/api/host/venues/{venueId}/invites',
      '/api/host/venues/{venueId}/invites/{inviteId}',
      '/api/host/venues/{venueId}/staff/{staffId}',
      '/api/host/venues/{venueId}/staff/{staffId}/sessions',
      '/api/host/password',
      '/api/host/invites/{token}',
      '/api/host/invites/{token}/accept',
    ])
      expect(doc.paths, path).toHaveProperty([path]);
  });
});
