import { describe, expect, it } from 'vitest';
import { DEMO_CLUB_ID, createBody, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { createUser, lastCode, outbox, sendCode, sessionCookie, signUp } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';
import { listUserEvents } from './user-events.repository.js';

const e164 = (phone: string) => toE164(phone) as string;

describe.each(stores)('user-manager API on $name', (store) => {
  const t = useTestApp(store, { PUBLIC_BASE_URL: 'https://vez.example' });
  const me = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/product-user', headers: cookie ? { cookie } : {} });

  it('POST /otp/send queues a 6-digit code by SMS and stores only its hash', async () => {
    const phone = e164(nextPhone());
    const res = await sendCode(t, { target: phone });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: true, channel: 'sms', expiresIn: 600 });
    const code = await lastCode(t, phone);
    expect(code).toMatch(/^\d{6}$/);
    const row = await t.db.kysely.selectFrom('one_time_codes').selectAll().where('target', '=', phone).executeTakeFirstOrThrow();
    expect(row.code_hash).not.toContain(code);
    expect(row.code_hash).toMatch(/^scrypt\$/);
  });

  it('POST /otp/send by email lower-cases the address and writes in the asked language', async () => {
    const res = await sendCode(t, { channel: 'email', target: 'Ana.Souza@Example.COM', lang: 'en' });
    expect(res.statusCode).toBe(200);
    const mail = (await outbox(t)).find((m) => m.to === 'ana.souza@example.com');
    expect(mail).toMatchObject({ channel: 'email' });
    expect(mail?.body).toMatch(/Demo Club \(Vez\): your code is \d{6}/);
  });

  it.each([
    [{ target: '123' }, 422, 'target', 'Invalid phone number'],
    [{ channel: 'email' as const, target: 'not-an-email' }, 422, 'target', 'Invalid email'],
    [{ target: '+5511987654321', venueId: 'bad' }, 422, 'venueId', undefined],
    [{ target: '+5511987654321', venueId: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, 404, undefined, undefined],
  ])('POST /otp/send refuses %j with %i and sends nothing', async (body, status, field, message) => {
    const before = (await outbox(t)).length;
    const res = await sendCode(t, body);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toEqual(message ?? expect.any(String));
    if (field) expect(res.json().field).toBe(field);
    expect((await outbox(t)).length).toBe(before);
  });

  it('POST /product-user/otp creates the user with the code and starts a secure session', async () => {
    const phone = nextPhone();
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, e164(phone));
    const res = await createUser(t, {
      phone,
      email: 'Bia@Example.com',
      otp,
      firstName: 'Beatriz',
      lastName: 'Lima',
      venueId: DEMO_CLUB_ID,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      firstName: 'Beatriz',
      lastName: 'Lima',
      phone: e164(phone),
      email: 'bia@example.com',
      birthday: null,
    });
    const cookie = String([res.headers['set-cookie']].flat()[0]);
    expect(cookie).toMatch(/^vez_user=[\w-]{43}; Max-Age=\d+; Path=\/api; HttpOnly; Secure; SameSite=Lax$/);
    const current = await me(sessionCookie(res));
    expect(current.statusCode).toBe(200);
    expect([res.headers['cache-control'], current.headers['cache-control']]).toEqual(['no-store', 'no-store']);
    expect(current.json()._id).toBe(res.json()._id);
  });

  it('a code works once: the same code cannot create a second session', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, phone);
    expect((await createUser(t, { phone, otp })).statusCode).toBe(201);
    const again = await createUser(t, { phone, otp });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ field: 'otp', message: 'Peça um código primeiro.' });
  });

  it('POST /product-user (spec path) does the same; a verified existing phone logs its owner in (200)', async () => {
    const phone = e164(nextPhone());
    await signUp(t, phone);
    await sendCode(t, { target: phone });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/product-user',
      payload: { firstName: 'Ana', lastName: 'Souza Lima', phone, email: '', productName: 'waitlist', otp: await lastCode(t, phone) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().lastName).toBe('Souza Lima');
    const users = await t.db.kysely.selectFrom('product_users').select('id').where('phone', '=', phone).execute();
    expect(users).toHaveLength(1);
  });

  it('a code sent by email verifies the email; the phone typed with it is contact data only', async () => {
    const taken = e164(nextPhone());
    const owner = await signUp(t, taken);
    await sendCode(t, { channel: 'email', target: 'carla@example.com' });
    const otp = await lastCode(t, 'carla@example.com');
    const carla = await createUser(t, { phone: taken, email: 'carla@example.com', channel: 'email', otp });
    // Not "this phone belongs to another account": the answer tells nothing about the phone.
    expect(carla.statusCode).toBe(201);
    expect(carla.json()).toMatchObject({ phone: taken, email: 'carla@example.com' });
    expect(carla.json()._id).not.toBe((await me(owner)).json()._id);
    const rows = await t.db.kysely
      .selectFrom('product_users')
      .select(['phone_verified_at', 'email_verified_at'])
      .where('id', '=', carla.json()._id)
      .execute();
    expect(rows).toEqual([{ phone_verified_at: null, email_verified_at: t.clock.now }]);
  });

  it('two sign-ups racing with one code make one user and no 500', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, phone);
    const answers = await Promise.all([createUser(t, { phone, otp }), createUser(t, { phone, otp })]);
    expect(
      answers
        .map((a) => a.statusCode)
        .sort()
        .join(','),
    ).toBe('201,422');
    expect(await t.db.kysely.selectFrom('product_users').select('id').where('phone', '=', phone).execute()).toHaveLength(1);
  });

  it('bad user payloads answer 422 naming the field', async () => {
    const res = await createUser(t, { phone: '+5511987654321', otp: '12345' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'otp' });
    const noName = await createUser(t, { phone: '+5511987654321', otp: '123456', firstName: ' ' });
    expect(noName.json()).toMatchObject({ field: 'firstName', message: 'Por favor, informe seu nome completo.' });
  });

  it('GET /product-user answers 401 with a message without a session, and with an unknown token', async () => {
    for (const res of [await me(), await me('vez_user=nope')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Faça login para continuar.' });
    }
  });

  it('PATCH /product-user updates the profile; the phone cannot change without a code', async () => {
    const phone = e164(nextPhone());
    const cookie = await signUp(t, phone);
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/product-user', headers: { cookie }, payload });
    const res = await patch({ firstName: 'Ana Clara', birthday: '1990-02-28', gender: 'female', email: 'ANA.CLARA@example.com', phone });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Ana Clara', birthday: '1990-02-28', gender: 'female', email: 'ana.clara@example.com' });
    expect((await patch({ birthday: '1990-02-30' })).json()).toMatchObject({ statusCode: 422, field: 'birthday' });
    const phoneChange = await patch({ phone: nextPhone() });
    expect(phoneChange.json()).toMatchObject({ statusCode: 422, field: 'phone' });
    expect((await me(cookie)).json()).toMatchObject({ phone, firstName: 'Ana Clara' });
    const anonymous = await t.app.inject({ method: 'PATCH', url: '/api/product-user', payload: { firstName: 'X' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('POST /product-user/logout ends the session and clears the cookie', async () => {
    const cookie = await signUp(t, e164(nextPhone()));
    const res = await t.app.inject({ method: 'POST', url: '/api/product-user/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ loggedOut: true });
    expect(String([res.headers['set-cookie']].flat()[0])).toMatch(/^vez_user=; Max-Age=0; Path=\/api;.*Expires=Thu, 01 Jan 1970/);
    expect((await me(cookie)).statusCode).toBe(401);
    // Logging out twice, or without a session, or with an empty JSON body, is fine.
    expect((await t.app.inject({ method: 'POST', url: '/api/product-user/logout' })).statusCode).toBe(200);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/product-user/logout',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(empty.statusCode).toBe(200);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      headers: { 'content-type': 'application/json' },
      body: '{"venueId":',
    });
    expect(broken.json()).toMatchObject({ statusCode: 400, code: 'MALFORMED_REQUEST' });
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/otp/send',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"x":1}}',
    });
    expect(poisoned.statusCode).toBe(400);
  });

  it('POST /product-user/event stores the waitlist login and enter events', async () => {
    const phone = e164(nextPhone());
    const cookie = await signUp(t, phone);
    const event = (payload: object) => t.app.inject({ method: 'POST', url: '/api/product-user/event', headers: { cookie }, payload });
    const login = await event({ venueId: DEMO_CLUB_ID, eventType: 'waitlist-login', eventBody: {} });
    expect(login.statusCode).toBe(201);
    expect(login.headers['cache-control']).toBe('no-store');
    const body = createBody({ customer: { name: 'Ana Souza', phone, email: 'a@example.com' }, note: 'Localização: Bar' }, DEMO_CLUB_ID);
    const joined = await postJoin(t, body, { venueId: DEMO_CLUB_ID });
    const waitlistId = joined.json()._id as string;
    const enter = await event({ venueId: DEMO_CLUB_ID, eventType: 'waitlist-enter', eventBody: { data: body, waitlistId } });
    expect(enter.statusCode).toBe(201);
    const user = (await me(cookie)).json();
    const stored = await listUserEvents(t.db.kysely, user._id);
    expect(stored.map((e) => [e.event_type, e.venue_id, e.waitlist_id])).toEqual([
      ['waitlist-login', DEMO_CLUB_ID, null],
      ['waitlist-enter', DEMO_CLUB_ID, waitlistId],
    ]);
    expect(JSON.parse(stored[1]?.event_body ?? '{}').data.partySize).toBe(2);
    // Enter needs an entry of that venue; anonymous users cannot record events.
    expect((await event({ venueId: DEMO_CLUB_ID, eventType: 'waitlist-enter', eventBody: {} })).json().field).toBe('eventBody.waitlistId');
    expect((await event({ venueId: 'aaaaaaaaaaaaaaaaaaaaaaaa', eventType: 'waitlist-enter', eventBody: { waitlistId } })).statusCode).toBe(
      422,
    );
    expect((await event({ venueId: DEMO_CLUB_ID, eventType: 'other', eventBody: {} })).json().field).toBe('eventType');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/product-user/event',
      payload: { venueId: DEMO_CLUB_ID, eventType: 'waitlist-login' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('cookie-authenticated writes refuse cross-site requests and accept same-origin ones', async () => {
    const cookie = await signUp(t, e164(nextPhone()));
    const logout = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/product-user/logout', headers: { cookie, ...headers } });
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://x.vez.example' },
    ];
    for (const headers of crossSite) {
      const res = await logout(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Pedido recusado: origem não permitida.' });
    }
    expect((await me(cookie)).statusCode).toBe(200);
    const crossCode = await t.app.inject({
      method: 'POST',
      url: '/api/otp/send',
      headers: { origin: 'https://evil.example' },
      payload: {},
    });
    expect(crossCode.statusCode).toBe(403);
    expect((await logout({ origin: 'https://vez.example', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    for (const path of [
      '/api/otp/send',
      '/api/product-user',
      '/api/product-user/otp',
      '/api/product-user/logout',
      '/api/product-user/oauth2/passport',
      '/api/product-user/event',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(doc.paths['/api/product-user']).toHaveProperty(['get']);
    expect(doc.paths['/api/product-user']).toHaveProperty(['patch']);
    expect(doc.paths['/api/product-user/otp'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'phone', 'productName', 'otp']),
    );
  });
});
