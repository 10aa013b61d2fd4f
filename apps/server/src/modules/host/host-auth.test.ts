import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID } from '../../../test/fixtures.js';
import { appOnStore, useTestApp } from '../../../test/harness.js';
import { BISTRO_HOST, CLUB_HOST, DEMO_PASSWORD, loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

const SOME_ENTRY = 'AAAAAAAAAAAAAAAAAAAAAA';

/** Every host route, with a body that is valid where one is needed. */
const routes = (venue: string) =>
  [
    { method: 'GET', url: `/api/host/venues/${venue}/entries` },
    {
      method: 'POST',
      url: `/api/host/venues/${venue}/entries`,
      payload: { customer: { name: 'Rui Costa', phone: '+5511987654321' }, partySize: 2 },
    },
    { method: 'POST', url: `/api/host/venues/${venue}/entries/${SOME_ENTRY}/call` },
    { method: 'POST', url: `/api/host/venues/${venue}/entries/${SOME_ENTRY}/seat` },
    { method: 'POST', url: `/api/host/venues/${venue}/entries/${SOME_ENTRY}/cancel`, payload: { reason: 'NoShow' } },
    { method: 'PATCH', url: `/api/host/venues/${venue}/entries/${SOME_ENTRY}`, payload: { priority: true } },
    { method: 'PUT', url: `/api/host/venues/${venue}/waitlist`, payload: { active: true, locked: false } },
    { method: 'GET', url: `/api/host/venues/${venue}/settings` },
    { method: 'PATCH', url: `/api/host/venues/${venue}/settings`, payload: { hasMenu: true } },
    { method: 'GET', url: `/api/host/venues/${venue}/events` },
  ] as const;

describe.each(stores)('host sessions on $name', (store) => {
  const t = useTestApp(store, { LOGIN_MAX_PER_ACCOUNT_15_MIN: '3', LOGIN_MAX_PER_ADDRESS_15_MIN: '100', TRUST_PROXY: '1' });
  let clubCookie: string;
  beforeAll(async () => {
    clubCookie = await loginCookie(t.app, CLUB_HOST);
  });

  const login = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/host/login', payload, headers });

  it('login sets an httpOnly, SameSite=Lax session cookie and answers the staff member and venues', async () => {
    const res = await login({ email: 'HOST@bistro.example', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      staff: { _id: expect.any(String), email: BISTRO_HOST },
      venues: [{ _id: DEMO_BISTRO_ID, slug: 'bistro-demo', name: expect.objectContaining({ pt: 'Bistrô Demo' }), role: 'owner' }],
    });
    const cookie = res.cookies.find((c) => c.name === 'vez_staff');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api' });
    expect(cookie?.secure).toBeFalsy();
    const me = await t.app.inject({ method: 'GET', url: '/api/host/me', headers: { cookie: `vez_staff=${cookie?.value}` } });
    expect(me.json().staff.email).toBe(BISTRO_HOST);
  });

  it('the session token is stored hashed, never as sent', async () => {
    const cookie = await loginCookie(t.app, CLUB_HOST);
    const token = cookie.split('=')[1]!;
    const rows = await t.db.kysely.selectFrom('staff_sessions').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    const staff = await t.db.kysely.selectFrom('staff').select('password_hash').execute();
    expect(staff.every((s) => s.password_hash.startsWith('scrypt$32768$8$1$'))).toBe(true);
  });

  it.each([
    [{ email: BISTRO_HOST, password: 'wrong-password' }, 401, 'UNAUTHENTICATED'],
    [{ email: 'nobody@bistro.example', password: DEMO_PASSWORD }, 401, 'UNAUTHENTICATED'],
    [{ email: 'not-an-email', password: DEMO_PASSWORD }, 422, 'VALIDATION_FAILED'],
    [{ email: CLUB_HOST }, 422, 'VALIDATION_FAILED'],
  ])('login %j answers %i', async (payload, status, code) => {
    const res = await login(payload, { 'x-forwarded-for': '10.0.0.9' });
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
    expect(res.cookies).toHaveLength(0);
  });

  it('logout ends the session: the cookie no longer opens anything', async () => {
    const cookie = await loginCookie(t.app);
    const out = await t.app.inject({ method: 'POST', url: '/api/host/logout', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    const me = await t.app.inject({ method: 'GET', url: '/api/host/me', headers: { cookie } });
    expect(me.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/host/logout' })).statusCode).toBe(401);
  });

  it.each(routes(DEMO_BISTRO_ID))('$method $url answers 401 without a session', async (route) => {
    const res = await t.app.inject({ ...route });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
  });

  it.each(routes(DEMO_BISTRO_ID))('$method $url answers 403 to another venue’s staff', async (route) => {
    const res = await t.app.inject({ ...route, headers: { cookie: clubCookie } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a malformed venue id answers 400 and an unknown one 403', async () => {
    const cookie = await loginCookie(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/host/venues/nope/entries', headers: { cookie } })).json().code).toBe(
      'INVALID_VENUEID_FORMAT',
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/host/venues/${'f'.repeat(24)}/entries`, headers: { cookie } })).statusCode).toBe(
      403,
    );
  });

  it('refuses cookie-authenticated writes from another site, allows our own origin and non-browser clients', async () => {
    const cookie = await loginCookie(t.app, CLUB_HOST);
    const url = `/api/host/venues/${DEMO_CLUB_ID}/waitlist`;
    const payload = { active: true, locked: false };
    const evil = await t.app.inject({ method: 'PUT', url, payload, headers: { cookie, origin: 'https://evil.example' } });
    expect(evil.statusCode).toBe(403);
    const crossSite = await t.app.inject({ method: 'PUT', url, payload, headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    const own = await t.app.inject({
      method: 'PUT',
      url,
      payload,
      headers: { cookie, origin: t.config.publicBaseUrl, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url, payload, headers: { cookie } })).statusCode).toBe(200);
    const loginCsrf = await login({ email: CLUB_HOST, password: DEMO_PASSWORD }, { origin: 'https://evil.example' });
    expect(loginCsrf.statusCode).toBe(403);
  });

  it('a wrong-password flood from one address slows that address (429 + Retry-After), never the real host elsewhere', async () => {
    const flood = [];
    for (let i = 0; i < 100; i += 1)
      flood.push(await login({ email: BISTRO_HOST, password: `guess-${i}` }, { 'x-forwarded-for': '10.2.0.1' }));
    // LOGIN_MAX_PER_ACCOUNT_15_MIN=3 free failures, then one more checked, then it must wait.
    expect(flood.slice(0, 4).map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
    expect(flood.slice(4).every((r) => r.statusCode === 429)).toBe(true);
    const last = flood[99]!;
    expect(last.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED', message: expect.stringMatching(/retry in \d+ s/i) });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // The real host, from another address, logs in at once.
    const real = await login({ email: BISTRO_HOST, password: DEMO_PASSWORD }, { 'x-forwarded-for': '10.2.0.2' });
    expect(real.statusCode).toBe(200);
    expect(real.cookies.some((c) => c.name === 'vez_staff')).toBe(true);
    // The flooding address still waits, even with the right password.
    expect((await login({ email: BISTRO_HOST, password: DEMO_PASSWORD }, { 'x-forwarded-for': '10.2.0.1' })).statusCode).toBe(429);
  });

  it('each further failure from the same address doubles the wait; the right password then clears it', async () => {
    const email = CLUB_HOST;
    const from = { 'x-forwarded-for': '10.3.0.1' };
    const waits: number[] = [];
    for (let i = 0; i < 4; i += 1) expect((await login({ email, password: `nope-${i}` }, from)).statusCode).toBe(401);
    for (let round = 0; round < 3; round += 1) {
      const limited = await login({ email, password: 'nope' }, from);
      expect(limited.statusCode).toBe(429);
      const wait = Number(limited.headers['retry-after']);
      waits.push(wait);
      t.clock.now += wait * 1000;
      expect((await login({ email, password: `nope-r${round}` }, from)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4]);
    t.clock.now += 8000;
    expect((await login({ email, password: DEMO_PASSWORD }, from)).statusCode).toBe(200);
    expect((await login({ email, password: 'nope-after' }, from)).statusCode).toBe(401);
    expect((await login({ email, password: DEMO_PASSWORD }, from)).statusCode).toBe(200);
  });
});

describe.each(stores)('host login limit per address on $name', (store) => {
  const t = useTestApp(store, { LOGIN_MAX_PER_ADDRESS_15_MIN: '2', PUBLIC_BASE_URL: 'https://vez.example' });

  it('counts every attempt from one address, whatever the account', async () => {
    const login = (email: string) => t.app.inject({ method: 'POST', url: '/api/host/login', payload: { email, password: 'nope-nope' } });
    expect((await login('a@x.example')).statusCode).toBe(401);
    expect((await login('b@x.example')).statusCode).toBe(401);
    const blocked = await login('c@x.example');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    // t's address budget is spent above; a second app on the same store has its own.
    const other = await appOnStore(t.db, { PUBLIC_BASE_URL: 'https://vez.example' });
    try {
      const res = await other.inject({ method: 'POST', url: '/api/host/login', payload: { email: BISTRO_HOST, password: DEMO_PASSWORD } });
      expect(res.cookies.find((c) => c.name === 'vez_staff')?.secure).toBe(true);
    } finally {
      await other.close();
    }
  });
});
