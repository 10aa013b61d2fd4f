import { Migrator, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { BISTRO_DOOR, BISTRO_HOST, DEMO_PASSWORD, loginCookie } from '../../../test/staff-session.js';
import { type TestStore, stores } from '../../../test/stores.js';
import { teamClient } from '../../../test/team-helpers.js';
import { type AdminIo, runAdmin } from '../../cli/admin-commands.js';
import { migrations } from '../../db/migrations/index.js';

// Who may do what (docs/product.md §9, docs/decisions/023-staff-roles.md), on every store.
describe.each(stores)('staff roles on $name', (store) => {
  const t = useTestApp(store, { LOGIN_MAX_PER_ADDRESS_15_MIN: '1000' });
  let owner: string;
  let door: string;
  let call: ReturnType<typeof teamClient>['call'];
  const venue = `/api/host/venues/${DEMO_BISTRO_ID}`;

  beforeAll(async () => {
    ({ call } = teamClient(t));
    [owner, door] = [await loginCookie(t.app, BISTRO_HOST), await loginCookie(t.app, BISTRO_DOOR)];
  });

  it('the session answer names the role at each venue', async () => {
    expect((await call('GET', '/api/host/me', owner)).json().venues).toEqual([
      expect.objectContaining({ _id: DEMO_BISTRO_ID, role: 'owner' }),
    ]);
    expect((await call('GET', '/api/host/me', door)).json().venues).toEqual([
      expect.objectContaining({ _id: DEMO_BISTRO_ID, role: 'host' }),
    ]);
  });

  it('a host runs the queue: walk-ins, call, seat, cancel, edit, messages, undo, the waitlist state, the figures', async () => {
    const add = async () => (await call('POST', `${venue}/entries`, door, createBody())).json().entry._id as string;
    const first = `${venue}/entries/${await add()}`;
    expect((await call('PATCH', first, door, { priority: true })).statusCode).toBe(200);
    expect((await call('POST', `${first}/messages`, door, { text: 'Sua mesa está quase pronta.' })).statusCode).toBe(201);
    expect((await call('POST', `${first}/call`, door)).statusCode).toBe(200);
    expect((await call('POST', `${first}/seat`, door)).statusCode).toBe(200);
    expect((await call('POST', `${first}/restore`, door)).statusCode).toBe(200);
    const second = `${venue}/entries/${await add()}`;
    expect((await call('POST', `${second}/cancel`, door, { reason: 'NoShow' })).statusCode).toBe(200);
    expect((await call('PUT', `${venue}/waitlist`, door, { active: true, locked: true })).statusCode).toBe(200);
    expect((await call('PUT', `${venue}/waitlist`, door, { active: true, locked: false })).statusCode).toBe(200);
    expect((await call('GET', `${venue}/stats`, door)).statusCode).toBe(200);
    expect((await call('GET', `${venue}/settings`, door)).statusCode).toBe(200);
  });

  it('settings, message texts, images and the team answer 403 OWNER_ONLY to a host, and nothing changes', async () => {
    const before = (await call('GET', `${venue}/settings`, owner)).body;
    const boundary = 'vezboundary7MA4YWxkTrZu0gW';
    const upload = await t.app.inject({
      method: 'POST',
      url: `${venue}/images`,
      headers: { cookie: door, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--${boundary}--\r\n`,
    });
    for (const res of [
      await call('PATCH', `${venue}/settings`, door, { hasMenu: true }),
      await call('PATCH', `${venue}/settings`, door, { settings: { messageTemplates: {} } }),
      upload,
      await call('GET', `${venue}/team`, door),
      await call('POST', `${venue}/invites`, door, { email: 'friend@bistro.example' }),
      await call('DELETE', `${venue}/staff/000000000000000000000000/sessions`, door),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'OWNER_ONLY', message: 'Only an owner of this venue may do this.' });
    }
    expect((await call('GET', `${venue}/settings`, owner)).body).toBe(before);
    expect((await call('PATCH', `${venue}/settings`, owner, { hasMenu: true })).statusCode).toBe(200);
  });

  it('everyone changes their own password: the current one first, the rules of every password, the other sessions end', async () => {
    const other = await loginCookie(t.app, BISTRO_DOOR);
    const change = (payload: object, cookie = door) => call('POST', '/api/host/password', cookie, payload);
    const wrong = await change({ currentPassword: 'not-it-at-all', newPassword: 'door-secret-2' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', field: 'currentPassword' });
    for (const [payload, field] of [
      [{ currentPassword: DEMO_PASSWORD, newPassword: 'short' }, 'newPassword'],
      [{ currentPassword: DEMO_PASSWORD }, 'newPassword'],
      [{ currentPassword: '', newPassword: 'door-secret-2' }, 'currentPassword'],
      [{ currentPassword: DEMO_PASSWORD, newPassword: 'door-secret-2', email: 'x' }, 'email'],
    ] as const) {
      const res = await change(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().field).toBe(field);
    }
    expect((await call('GET', '/api/host/me', other)).statusCode).toBe(200); // nothing changed yet
    expect((await call('POST', '/api/host/password', undefined, { currentPassword: 'x', newPassword: 'y' })).statusCode).toBe(401);

    const ok = await change({ currentPassword: DEMO_PASSWORD, newPassword: 'door-secret-2' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().ended).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/api/host/me', other)).statusCode).toBe(401);
    expect((await call('GET', '/api/host/me', door)).statusCode).toBe(200);
    await expect(loginCookie(t.app, BISTRO_DOOR, DEMO_PASSWORD)).rejects.toThrow(/401/);
    await loginCookie(t.app, BISTRO_DOOR, 'door-secret-2');
  });

  it('another venue’s staff get 403 FORBIDDEN, whatever their role', async () => {
    const club = await loginCookie(t.app, 'host@clube.example');
    for (const res of [
      await call('PATCH', `${venue}/settings`, club, { hasMenu: false }),
      await call('GET', `${venue}/team`, club),
      await call('GET', `${venue}/entries`, club),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
  });

  it('create-staff --role host makes a host; the default is owner; another role is refused', async () => {
    const admin = async (argv: string[]) => {
      const err: string[] = [];
      const io: AdminIo = { db: t.db, out: () => undefined, err: (l) => err.push(l), prompt: async () => 'cli-password-1' };
      return { code: await runAdmin(argv, io), err: err.join('\n') };
    };
    expect((await admin(['create-staff', '--email', 'cli-host@bistro.example', '--venue', DEMO_BISTRO_ID, '--role', 'host'])).code).toBe(0);
    expect((await admin(['create-staff', '--email', 'cli-owner@clube.example', '--venue', DEMO_CLUB_ID])).code).toBe(0);
    const refused = await admin(['create-staff', '--email', 'cli-chef@bistro.example', '--venue', DEMO_BISTRO_ID, '--role', 'chef']);
    expect(refused).toEqual({ code: 1, err: expect.stringContaining('--role must be owner or host') });
    const roles = await t.db.kysely
      .selectFrom('staff_venues')
      .innerJoin('staff', 'staff.id', 'staff_venues.staff_id')
      .select(['staff.email', 'staff_venues.role'])
      .where('staff.email', 'like', 'cli-%')
      .orderBy('staff.email')
      .execute();
    expect(roles).toEqual([
      { email: 'cli-host@bistro.example', role: 'host' },
      { email: 'cli-owner@clube.example', role: 'owner' },
    ]);
  });
});

describe.each(stores)('migration 012 on a store with staff ($name)', (store: TestStore) => {
  it('makes every existing binding an owner, so nobody loses a right', async () => {
    const db = await store.open();
    try {
      const migrator = new Migrator({
        db: db.kysely,
        provider: { getMigrations: async () => migrations },
        ...(db.schema ? { migrationTableSchema: db.schema } : {}),
      });
      expect((await migrator.migrateTo('011-estimates')).error).toBeUndefined();
      await sql`insert into venues (id, slug, name_pt, city, neighborhood, has_menu, login_journey, max_party_size, sections, settings, theme,
        waitlist_active, waitlist_locked, next_seq, created_at, updated_at)
        values ('aaaaaaaaaaaaaaaaaaaaaaaa', 'old', 'Antiga', '', '', 0, 0, 8, '[]', '{}', '{}', 1, 0, 1, 1, 1)`.execute(db.kysely);
      await sql`insert into staff (id, email, password_hash, created_at) values ('bbbbbbbbbbbbbbbbbbbbbbbb', 'old@x.example', 'h', 1)`.execute(
        db.kysely,
      );
      await sql`insert into staff_venues (staff_id, venue_id) values ('bbbbbbbbbbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaaaaaaaaaa')`.execute(
        db.kysely,
      );
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await db.kysely.selectFrom('staff_venues').select(['staff_id', 'role']).execute()).toEqual([
        { staff_id: 'bbbbbbbbbbbbbbbbbbbbbbbb', role: 'owner' },
      ]);
    } finally {
      await db.close();
    }
  });
});
