import { describe, expect, it } from 'vitest';
import { nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { createUser, currentUser, lastCode, sendCode, sessionCookie, signUp, signUpByEmail } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';

const e164 = (phone: string) => toE164(phone) as string;
let mailbox = 0;
const nextEmail = () => `person-${++mailbox}-${Date.now()}@example.com`;

/**
 * Decisions §3: an email or phone that no code has verified is contact data only. It never logs
 * anyone in, never matches or merges an account, never keeps its real owner from signing up, and
 * the answers do not tell whether it belongs to an account.
 */
describe.each(stores)('verified contacts on $name', (store) => {
  const t = useTestApp(store);
  const patch = (cookie: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: '/api/product-user', headers: { cookie }, payload });
  const idOf = async (cookie: string) => (await currentUser(t, cookie)).json()._id as string;

  it("an email typed at an SMS sign-up neither blocks its owner's sign-up nor receives the owner's email login", async () => {
    const victimEmail = nextEmail();
    const attacker = await signUp(t, e164(nextPhone()), { email: victimEmail, firstName: 'Mallory' });
    expect((await currentUser(t, attacker)).json().email).toBe(victimEmail);

    // The owner signs up by SMS with the same email: no "emailTaken".
    const victimPhone = e164(nextPhone());
    await sendCode(t, { target: victimPhone });
    const bySms = await createUser(t, { phone: victimPhone, email: victimEmail, otp: await lastCode(t, victimPhone), firstName: 'Vera' });
    expect(bySms.statusCode).toBe(201);

    // The owner logs in by email: their own account is made, never the attacker's.
    await sendCode(t, { channel: 'email', target: victimEmail });
    const byEmail = await createUser(t, {
      phone: victimPhone,
      email: victimEmail,
      channel: 'email',
      otp: await lastCode(t, victimEmail),
      firstName: 'Vera',
    });
    expect([200, 201]).toContain(byEmail.statusCode);
    const victimId = byEmail.json()._id as string;
    expect(victimId).not.toBe(await idOf(attacker));
    expect(byEmail.json()).toMatchObject({ firstName: 'Vera', email: victimEmail });

    // The verified owner claimed the email: the attacker's session no longer shows it.
    const seen = (await currentUser(t, attacker)).json();
    expect(seen).toMatchObject({ firstName: 'Mallory', email: null });
    expect(JSON.stringify(seen)).not.toContain('Vera');
    // And the owner's next email login lands in the same, own account.
    await sendCode(t, { channel: 'email', target: victimEmail });
    const again = await createUser(t, {
      phone: victimPhone,
      email: victimEmail,
      channel: 'email',
      otp: await lastCode(t, victimEmail),
      firstName: 'Vera',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()._id).toBe(victimId);
  });

  it('a phone typed at an email sign-up never logs in: its owner gets their own account and claims it', async () => {
    const victimPhone = e164(nextPhone());
    const attacker = await signUpByEmail(t, nextEmail(), victimPhone, { firstName: 'Mallory' });
    expect((await currentUser(t, attacker)).json().phone).toBe(victimPhone);

    await sendCode(t, { target: victimPhone });
    const owner = await createUser(t, { phone: victimPhone, otp: await lastCode(t, victimPhone), firstName: 'Vera' });
    expect(owner.statusCode).toBe(201);
    expect(owner.json()._id).not.toBe(await idOf(attacker));
    expect((await currentUser(t, attacker)).json().phone).toBe('');
    const verified = await t.db.kysely.selectFrom('product_users').select('id').where('phone', '=', victimPhone).execute();
    expect(verified).toEqual([{ id: owner.json()._id }]);
  });

  it("the answer of a sign-up does not tell whether the typed email belongs to someone's account", async () => {
    const ownedEmail = nextEmail();
    const owner = await signUpByEmail(t, ownedEmail, e164(nextPhone()), { firstName: 'Olga' });
    const answer = async (email: string) => {
      const phone = e164(nextPhone());
      await sendCode(t, { target: phone });
      const res = await createUser(t, { phone, email, otp: await lastCode(t, phone) });
      const { _id, phone: _phone, email: _email, createdAt, updatedAt, ...rest } = res.json();
      return { status: res.statusCode, rest, types: [typeof _id, typeof createdAt, typeof updatedAt] };
    };
    expect(await answer(ownedEmail)).toEqual(await answer(nextEmail()));
    // The owner's account and login are untouched.
    await sendCode(t, { channel: 'email', target: ownedEmail });
    const login = await createUser(t, {
      phone: e164(nextPhone()),
      email: ownedEmail,
      channel: 'email',
      otp: await lastCode(t, ownedEmail),
      firstName: 'Olga',
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()._id).toBe(await idOf(owner));
  });

  it('PATCH /product-user stores an email unverified: it neither refuses an owned address nor captures its login', async () => {
    const ownedEmail = nextEmail();
    const owner = await signUpByEmail(t, ownedEmail, e164(nextPhone()));
    const attacker = await signUp(t, e164(nextPhone()));
    const res = await patch(attacker, { email: ownedEmail.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(ownedEmail);
    expect(res.headers['cache-control']).toBe('no-store');

    await sendCode(t, { channel: 'email', target: ownedEmail });
    const login = await createUser(t, {
      phone: e164(nextPhone()),
      email: ownedEmail,
      channel: 'email',
      otp: await lastCode(t, ownedEmail),
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()._id).toBe(await idOf(owner));
    expect(login.json()._id).not.toBe(await idOf(attacker));

    // A fresh address typed by PATCH is not a login either: its owner's first email login makes their own account.
    const fresh = nextEmail();
    expect((await patch(attacker, { email: fresh })).statusCode).toBe(200);
    await sendCode(t, { channel: 'email', target: fresh });
    const first = await createUser(t, { phone: e164(nextPhone()), email: fresh, channel: 'email', otp: await lastCode(t, fresh) });
    expect(first.statusCode).toBe(201);
    expect(first.json()._id).not.toBe(await idOf(attacker));
    expect((await currentUser(t, attacker)).json().email).toBeNull();
    expect((await currentUser(t, sessionCookie(first))).json().email).toBe(fresh);
  });

  it('an email typed again at an SMS login stays unverified there; its verified owner keeps it', async () => {
    const phone = e164(nextPhone());
    const email = nextEmail();
    await signUpByEmail(t, email, phone);
    await sendCode(t, { target: phone });
    const bySms = await createUser(t, { phone, email, otp: await lastCode(t, phone) });
    // The phone was only typed at the email sign-up: the SMS code makes its own account.
    expect(bySms.statusCode).toBe(201);
    await sendCode(t, { target: phone });
    const again = await createUser(t, { phone, email, otp: await lastCode(t, phone) });
    expect(again.statusCode).toBe(200);
    const rows = await t.db.kysely
      .selectFrom('product_users')
      .select(['id', 'phone_verified_at', 'email_verified_at'])
      .where('email', '=', email)
      .orderBy('created_at')
      .execute();
    // The email's verified owner (the email sign-up) keeps it; the SMS account holds it unverified.
    expect(rows.map((r) => [r.phone_verified_at !== null, r.email_verified_at !== null])).toEqual(
      rows.map((r) => (r.id === again.json()._id ? [true, false] : [false, true])),
    );
  });
});
