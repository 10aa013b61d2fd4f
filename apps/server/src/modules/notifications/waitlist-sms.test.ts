import { describe, expect, it } from 'vitest';
import { createBody, nextPhone, postJoin } from '../../../test/fixtures.js';
import { startTestApp, useTestApp } from '../../../test/harness.js';
import { outbox, sessionCookie, signUp, signUpByEmail } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { sqliteStore, stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';
import { findEntryById } from '../queue/index.js';
import { callEntry } from '../queue/index.js';

const BASE = 'https://vez.example';

describe.each(stores)('SMS on join and call, passports, on $name', (store) => {
  const t = useTestApp(store, { PUBLIC_BASE_URL: BASE });
  const join = (phone: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    postJoin(t, { customer: { name: 'Ana Souza', phone }, ...extra }, { headers });
  const smsTo = async (phone: string) => (await outbox(t)).filter((m) => m.to === toE164(phone));
  const exchange = (passport: string) =>
    t.app.inject({ method: 'POST', url: '/api/product-user/oauth2/passport', payload: { passport, productName: 'waitlist' } });

  it('a join sends an SMS with the position page link, in Portuguese by default', async () => {
    const phone = nextPhone();
    const res = await join(phone);
    const [sms, ...more] = await smsTo(phone);
    expect(more).toHaveLength(0);
    expect(sms).toMatchObject({ channel: 'sms', to: toE164(phone) });
    expect(sms?.body).toBe(
      `Bistro Demo: voce esta na fila. Acompanhe: ${BASE}/waitlist/${res.json()._id} Responda 1 (a caminho) ou 9 (sair).`,
    );
    expect(Date.parse(sms?.createdAt ?? '')).toBe(t.clock.now);
  });

  it('in English for a diner who joined in English, with the English venue name', async () => {
    const phone = nextPhone();
    const res = await join(phone, { lang: 'en' });
    expect((await smsTo(phone))[0]?.body).toBe(
      `Demo Bistro: you're on the waitlist. Follow: ${BASE}/waitlist/${res.json()._id} Reply 1 (on my way) or 9 (leave).`,
    );
  });

  it('a repeat join with its proof sends no second SMS; without it the plain link goes again (docs/product.md §3)', async () => {
    const phone = nextPhone();
    const first = (await join(phone)).json();
    const mine = await join(phone, { joinProof: first.joinProof });
    expect(mine.json().created).toBe(false);
    expect(await smsTo(phone)).toHaveLength(1);
    const stranger = await join(phone);
    expect(stranger.statusCode).toBe(409);
    const [resent] = await smsTo(phone);
    expect(resent?.body).toBe(
      `Bistro Demo: voce esta na fila. Acompanhe: ${BASE}/waitlist/${first._id} Responda 1 (a caminho) ou 9 (sair).`,
    );
    expect(await smsTo(phone)).toHaveLength(2);
  });

  it('the dev outbox lists newest first, with to, channel, body and createdAt only', async () => {
    const [a, b] = [nextPhone(), nextPhone()];
    await join(a);
    await join(b);
    const list = await outbox(t);
    expect(list[0]?.to).toBe(toE164(b));
    expect(list[1]?.to).toBe(toE164(a));
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['body', 'channel', 'createdAt', 'to']);
  });

  it('a logged-in diner gets a single-use passport in the link; it starts a session once', async () => {
    const phone = toE164(nextPhone()) as string;
    const cookie = await signUp(t, phone);
    const res = await join(phone, {}, { cookie });
    const sms = (await smsTo(phone)).find((m) => m.body.includes('/waitlist/'));
    const link = new URL(/https:\S+/.exec(sms?.body ?? '')?.[0] ?? '');
    expect(link.pathname).toBe(`/waitlist/${res.json()._id}`);
    const passport = link.searchParams.get('passport') ?? '';
    expect(passport).toMatch(/^[\w-]{43}$/);

    const first = await exchange(passport);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ phone, firstName: 'Ana' });
    const me = await t.app.inject({ method: 'GET', url: '/api/product-user', headers: { cookie: sessionCookie(first) } });
    expect(me.json().phone).toBe(phone);

    const second = await exchange(passport);
    expect(second.statusCode).toBe(401);
    expect(second.json()).toMatchObject({
      code: 'UNAUTHENTICATED',
      field: 'passport',
      message: 'Este link de acesso expirou ou já foi usado.',
    });
    expect(second.headers['set-cookie']).toBeUndefined();
  });

  it('a passport expires after an hour; unknown and malformed passports are refused', async () => {
    const phone = toE164(nextPhone()) as string;
    const cookie = await signUp(t, phone);
    await join(phone, {}, { cookie });
    const sms = (await smsTo(phone)).find((m) => m.body.includes('passport='));
    const passport = /passport=([\w-]+)/.exec(sms?.body ?? '')?.[1] ?? '';
    t.clock.now += 60 * 60_000;
    expect((await exchange(passport)).statusCode).toBe(401);
    expect((await exchange('x'.repeat(43))).statusCode).toBe(401);
    expect((await exchange('short')).json()).toMatchObject({ statusCode: 422, field: 'passport' });
  });

  it("a passport goes only to the account's own verified phone, never to another phone named in a join", async () => {
    const cookie = await signUp(t, toE164(nextPhone()) as string);
    const other = nextPhone();
    await join(other, {}, { cookie });
    const [sms] = await smsTo(other);
    expect(sms?.body).toContain('/waitlist/');
    expect(sms?.body).not.toContain('passport');
    expect(
      await t.db.kysely
        .selectFrom('passports')
        .select('token_hash')
        .where('entry_id', '=', /\/waitlist\/([\w-]+)/.exec(sms?.body ?? '')?.[1] ?? '')
        .execute(),
    ).toEqual([]);
  });

  it('a phone only typed at an email sign-up gets no passport', async () => {
    const phone = toE164(nextPhone()) as string;
    const cookie = await signUpByEmail(t, `typed-${phone.slice(-8)}@example.com`, phone);
    await join(phone, {}, { cookie });
    expect((await smsTo(phone))[0]?.body).not.toContain('passport');
  });

  it('stored messages keep no usable code or login link once sent; the dev outbox still shows them', async () => {
    const phone = toE164(nextPhone()) as string;
    const cookie = await signUp(t, phone);
    const joined = await join(phone, {}, { cookie });
    const shown = (await smsTo(phone)).map((m) => m.body);
    expect(shown.some((b) => /passport=[\w-]{43}/.test(b))).toBe(true);
    expect(shown.some((b) => /seu codigo é \d{6}/.test(b))).toBe(true);
    const rows = await t.db.kysely.selectFrom('messages').select(['body', 'safe_body', 'status']).where('recipient', '=', phone).execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'sent', safe_body: null });
      expect(row.body).not.toMatch(/\d{6}|passport/);
    }
    expect(rows.map((r) => r.body).sort()).toEqual([
      `Bistro Demo: voce esta na fila. Acompanhe: ${BASE}/waitlist/${joined.json()._id} Responda 1 (a caminho) ou 9 (sair).`,
      'Clube Demo (Vez): seu codigo é ------. Ele vale por 10 minutos. Nao o compartilhe.',
    ]);
  });

  it('an anonymous join has no passport', async () => {
    const phone = nextPhone();
    await join(phone, {}, { cookie: 'vez_user=not-a-session' });
    expect((await smsTo(phone))[0]?.body).not.toContain('passport');
  });

  it('calling a party sends "your turn" with the link; a call again sends it again, a doubled call does not (docs/product.md §8)', async () => {
    const phone = nextPhone();
    const id = (await join(phone, { lang: 'en' })).json()._id as string;
    const entry = await findEntryById(t.db.kysely, id);
    if (!entry) throw new Error('no entry');
    await callEntry(t.app.queueDeps, entry);
    const [called] = await smsTo(phone);
    expect(called?.body).toBe(
      `Demo Bistro: your turn! See the host within 10 min. ${BASE}/waitlist/${id} Reply 1 (on my way) or 9 (leave).`,
    );
    // The same call twice (a stale copy of the entry, a doubled click) is one message.
    await callEntry(t.app.queueDeps, entry);
    expect(await smsTo(phone)).toHaveLength(2);
    // Calling the called party again is a new message.
    await callEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, id))!);
    expect(await smsTo(phone)).toHaveLength(3);
  });

  it("the host console's call and walk-in send their SMS too", async () => {
    const host = hostApi(t);
    const phone = nextPhone();
    const walkIn = await host.post('/entries', createBody({ customer: { name: 'Caio Prado', phone } }));
    expect(walkIn.statusCode).toBe(201);
    const id = walkIn.json().entry._id as string;
    expect((await smsTo(phone))[0]?.body).toContain(`${BASE}/waitlist/${id}`);
    const call = await host.post(`/entries/${id}/call`);
    expect(call.statusCode).toBe(200);
    expect((await smsTo(phone))[0]?.body).toBe(
      `Bistro Demo: sua vez! Va à recepcao em até 10 min. ${BASE}/waitlist/${id} Responda 1 (a caminho) ou 9 (sair).`,
    );
  });
});

describe('dev outbox route', () => {
  it('does not exist outside the demo (docs/product.md §9)', async () => {
    const t = await startTestApp(sqliteStore, { DEMO: '0' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("shows a join's SMS once the join is answered, before the worker has marked it delivered", async () => {
    // No worker: the message stays as the join committed it (docs/decisions/046-fewer-commits-per-change.md).
    const t = await startTestApp(sqliteStore, { MESSAGE_WORKER: '0' });
    try {
      const phone = nextPhone();
      expect((await postJoin(t, { customer: { name: 'Ana Souza', phone } })).statusCode).toBe(201);
      const outbox = (await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).json() as { to: string; body: string }[];
      expect(outbox.find((m) => m.to === toE164(phone))?.body).toMatch(/Bistr[oô] Demo/);
    } finally {
      await t.close();
    }
  });

  it("is the demo's, whatever NODE_ENV says (docs/security.md, Safe defaults)", async () => {
    const t = await startTestApp(sqliteStore, { NODE_ENV: 'production', PUBLIC_BASE_URL: BASE });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
