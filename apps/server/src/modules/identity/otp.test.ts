import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { createUser, lastCode, nextAddress, outbox, sendCode, signUpByEmail } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';

const e164 = (phone: string) => toE164(phone) as string;
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe.each(stores)('one-time codes on $name', (store) => {
  const t = useTestApp(store, { OTP_SENDS_PER_ADDRESS_PER_10_MIN: '8' });

  it('a code expires after 10 minutes', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, phone);
    t.clock.now += 10 * 60_000;
    const res = await createUser(t, { phone, otp });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'otp', message: 'O código expirou. Peça um novo código.' });
    expect(await t.db.kysely.selectFrom('product_users').select('id').where('phone', '=', phone).execute()).toEqual([]);
  });

  it('a code still works just before its 10 minutes end', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, phone);
    t.clock.now += 10 * 60_000 - 1000;
    expect((await createUser(t, { phone, otp })).statusCode).toBe(201);
  });

  it('locks after 5 wrong tries: even the right code is then refused', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone, lang: 'en' });
    const otp = await lastCode(t, phone);
    const messages: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await createUser(t, { phone, otp: wrongOf(otp), lang: 'en' });
      expect(res.statusCode).toBe(422);
      messages.push(res.json().message);
    }
    expect(messages.slice(0, 4)).toEqual(Array(4).fill('Invalid code. Check it and try again.'));
    expect(messages[4]).toBe('Too many wrong tries. Ask for a new code.');
    const right = await createUser(t, { phone, otp, lang: 'en' });
    expect(right.statusCode).toBe(422);
    expect(right.json().message).toBe('Too many wrong tries. Ask for a new code.');
    // A new code works again.
    await sendCode(t, { target: phone });
    expect((await createUser(t, { phone, otp: await lastCode(t, phone) })).statusCode).toBe(201);
  });

  it('concurrent guesses cannot get more than 5 comparisons out of one code', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const otp = await lastCode(t, phone);
    const guesses = Array.from({ length: 12 }, (_, i) => wrongOf(String((Number(otp) + i) % 1_000_000)));
    await Promise.all(guesses.map((guess) => createUser(t, { phone, otp: guess })));
    const row = await t.db.kysely.selectFrom('one_time_codes').select('tries').where('target', '=', phone).executeTakeFirstOrThrow();
    expect(row.tries).toBe(5);
    expect((await createUser(t, { phone, otp })).statusCode).toBe(422);
  });

  it('only the newest code counts: an earlier one stops working once another is sent', async () => {
    const phone = e164(nextPhone());
    await sendCode(t, { target: phone });
    const first = await lastCode(t, phone);
    await sendCode(t, { target: phone, lang: 'en' });
    const second = await lastCode(t, phone);
    const stale = first === second ? undefined : await createUser(t, { phone, otp: first, lang: 'en' });
    if (stale) expect(stale.json()).toMatchObject({ statusCode: 422, field: 'otp', message: 'Invalid code. Check it and try again.' });
    expect((await createUser(t, { phone, otp: second })).statusCode).toBe(201);
    // Still refused after the newest was used.
    expect((await createUser(t, { phone, otp: first })).statusCode).toBe(422);
  });

  it('codes are sent only for a venue with the login journey', async () => {
    const phone = e164(nextPhone());
    const before = (await outbox(t)).length;
    const res = await sendCode(t, { target: phone, venueId: DEMO_BISTRO_ID, lang: 'en' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', field: 'venueId', message: 'This restaurant does not use login codes.' });
    expect((await outbox(t)).length).toBe(before);
    expect(await t.db.kysely.selectFrom('one_time_codes').select('id').where('target', '=', phone).execute()).toEqual([]);
  });

  it("codes by SMS go only to the venue's SMS countries (no SMS pumping to foreign numbers)", async () => {
    const foreign = '+351 912 345 678';
    const before = (await outbox(t)).length;
    const res = await sendCode(t, { target: foreign });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PHONE_COUNTRY_NOT_ALLOWED', field: 'target' });
    expect(res.json().message).toContain('Brazil (BR)');
    expect((await outbox(t)).length).toBe(before);
    expect(await t.db.kysely.selectFrom('one_time_codes').select('id').where('target', '=', e164(foreign)).execute()).toEqual([]);
  });

  it('a code send answers the same whether the phone or email has an account or not', async () => {
    const phone = e164(nextPhone());
    const email = `owner-${phone.slice(-8)}@example.com`;
    await signUpByEmail(t, email, phone);
    const strip = (res: Awaited<ReturnType<typeof sendCode>>) => {
      const { date: _date, ...headers } = res.headers;
      return { status: res.statusCode, headers, body: res.body };
    };
    const pairs: [Parameters<typeof sendCode>[1], Parameters<typeof sendCode>[1]][] = [
      [{ target: phone }, { target: e164(nextPhone()) }],
      [
        { channel: 'email', target: email },
        { channel: 'email', target: `nobody-${phone.slice(-8)}@example.com` },
      ],
    ];
    for (const [known, unknown] of pairs) {
      expect(strip(await sendCode(t, known))).toEqual(strip(await sendCode(t, unknown)));
    }
  });

  it('a wrong code before any send says to ask for one', async () => {
    const res = await createUser(t, { phone: nextPhone(), otp: '000000' });
    expect(res.json()).toMatchObject({ statusCode: 422, message: 'Peça um código primeiro.' });
  });

  it('limits sends to 5 per target per 10 minutes: 429, Retry-After and a clear message', async () => {
    const phone = e164(nextPhone());
    for (let i = 0; i < 5; i += 1) {
      t.clock.now += 1000;
      expect((await sendCode(t, { target: phone })).statusCode).toBe(200);
    }
    const before = (await outbox(t)).filter((m) => m.to === phone).length;
    const limited = await sendCode(t, { target: phone });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Muitos códigos enviados para este contato. Tente de novo em 10 min.',
    });
    // The first of the five was sent 4 s before this request: it leaves the window in 596 s.
    expect(limited.headers['retry-after']).toBe('596');
    expect((await outbox(t)).filter((m) => m.to === phone)).toHaveLength(before);
    t.clock.now += 596_000;
    expect((await sendCode(t, { target: phone })).statusCode).toBe(200);
  });

  it('limits sends per client address (configured here to 8 per 10 minutes)', async () => {
    const address = nextAddress();
    for (let i = 0; i < 8; i += 1) expect((await sendCode(t, { target: nextPhone() }, address)).statusCode).toBe(200);
    const limited = await sendCode(t, { target: nextPhone(), lang: 'en' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many codes requested from this network. Try again in 10 min.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await sendCode(t, { target: nextPhone() }, nextAddress())).statusCode).toBe(200);
    // The address itself is not stored.
    const keys = await t.db.kysely.selectFrom('one_time_codes').select('client_key').execute();
    expect(keys.every((k) => /^[0-9a-f]{64}$/.test(k.client_key))).toBe(true);
  });
});
