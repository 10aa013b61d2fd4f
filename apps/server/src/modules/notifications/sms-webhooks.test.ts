import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextPhone, joinParty } from '../../../test/fixtures.js';
import { startTestApp, type TestApp, useTestApp } from '../../../test/harness.js';
import { type FakeTwilio, outbox, startFakeTwilio, twilioEnv } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';
import { runRetentionJob } from '../../jobs/retention.js';
import { findEntryById } from '../queue/index.js';
import { twilioSignature } from './twilio-signature.js';

/** Phones as Twilio names them (E.164). */
const e164 = (phone: string): string => toE164(phone)!;

/** SMS replies and delivery reports in Twilio's format (docs/product.md §7). */

const BASE = 'https://vez.example';
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** Twilio gives every message its own sid; one seen before is ignored (docs/security.md). */
const newSid = () => `SM${randomBytes(16).toString('hex')}`;

async function joinAs(t: TestApp, phone: string, lang?: 'en') {
  return (await joinParty(t, { customer: { name: 'Rui Tavares', phone }, ...(lang ? { lang } : {}) })).id;
}

describe.each(stores)('SMS replies through the demo outbox (unsigned: the demo) on $name', (store) => {
  const t = useTestApp(store, { PUBLIC_BASE_URL: BASE });
  const host = hostApi(t);

  const reply = (from: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: FORM,
      payload: form({ From: from, To: '+15005550006', Body: body, MessageSid: newSid() }),
    });
  const entry = async (id: string) => (await findEntryById(t.db.kysely, id))!;
  const call = (id: string) => host.post(`/entries/${id}/call`);

  const keywords: [string, 'onMyWay' | 'needMoreTime' | 'leave'][] = [
    ['1', 'onMyWay'],
    ['sim', 'onMyWay'],
    ['Sím!', 'onMyWay'],
    [' ok ', 'onMyWay'],
    ['YES', 'onMyWay'],
    ['2', 'needMoreTime'],
    ['mais tempo', 'needMoreTime'],
    ['MAIS  TEMPO.', 'needMoreTime'],
    ['More time', 'needMoreTime'],
    ['9', 'leave'],
    ['sair', 'leave'],
    ['Cancelar', 'leave'],
    ['cancel', 'leave'],
  ];
  for (const [word, meaning] of keywords) {
    it(`"${word}" means ${meaning}`, async () => {
      const phone = nextPhone();
      const id = await joinAs(t, phone);
      const res = await reply(e164(phone), word);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/xml/);
      expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Message>.+<\/Message><\/Response>$/);
      const row = await entry(id);
      if (meaning === 'leave') {
        expect([row.status, row.cancel_reason]).toEqual(['cancelled', 'Customer']);
        expect(res.body).toContain('Voce saiu da fila de Bistro Demo.');
      } else {
        expect(row.status).toBe('active');
        expect(row.reply_kind).toBe(meaning);
        expect(row.reply_minutes).toBe(meaning === 'needMoreTime' ? 10 : null);
      }
    });
  }

  it("answers in the party's language: an English diner gets English", async () => {
    const phone = nextPhone();
    await joinAs(t, phone, 'en');
    const res = await reply(e164(phone), '1');
    expect(res.body).toContain('<Message>Demo Bistro knows you are on your way.</Message>');
    const pt = nextPhone();
    await joinAs(t, pt);
    // The answer is an SMS too: without accents, as the venue's SMS go by default (docs/product.md §8).
    expect((await reply(e164(pt), '1')).body).toContain('<Message>Bistro Demo ja sabe que voce esta a caminho.</Message>');
  });

  it('free text becomes a message to the venue: unread on the card, in the thread, marked read once opened', async () => {
    const phone = nextPhone();
    const id = await joinAs(t, phone);
    const res = await reply(e164(phone), 'Estou estacionando, <2 min> & chego');
    expect(res.body).toContain('Sua mensagem foi para Bistro Demo.');
    const queue = await host.get('/entries');
    const card = queue.json().entries.find((e: { _id: string }) => e._id === id);
    expect(card.unread).toBe(1);
    const thread = await host.get(`/entries/${id}/messages`);
    expect(thread.json().messages).toMatchObject([{ direction: 'in', text: 'Estou estacionando, <2 min> & chego', status: 'received' }]);
    expect((await entry(id)).unread).toBe(0);
  });

  it('a keyword when the party is on no list says so, and changes nothing', async () => {
    const res = await reply(e164(nextPhone()), '1');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Voce nao esta em nenhuma fila no momento.');
  });

  it('the most recent open entry of the sender gets the reply', async () => {
    const phone = nextPhone();
    const first = await joinAs(t, phone);
    await reply(e164(phone), '9');
    const second = await joinAs(t, phone);
    await reply(e164(phone), 'yes');
    expect((await entry(first)).reply_kind).toBeNull();
    expect((await entry(second)).reply_kind).toBe('onMyWay');
  });

  for (const stop of ['PARAR', 'stop', 'Parar.']) {
    it(`"${stop}" stops every further message to that phone`, async () => {
      const phone = nextPhone();
      const id = await joinAs(t, phone);
      const before = (await outbox(t)).filter((m) => m.to === e164(phone)).length;
      expect(before).toBe(1);
      const res = await reply(e164(phone), stop);
      expect(res.body).toContain('Voce nao recebera mais mensagens da Vez.');
      // The call and a staff message go nowhere; the entry stays on the list.
      expect((await call(id)).statusCode).toBe(200);
      const written = await host.post(`/entries/${id}/messages`, { text: 'Sua mesa está pronta' });
      expect(written.statusCode).toBe(201);
      expect((await outbox(t)).filter((m) => m.to === e164(phone))).toHaveLength(before);
      expect((await entry(id)).status).toBe('called');
    });
  }

  it('the join and call SMS say which replies work', async () => {
    const phone = nextPhone();
    const id = await joinAs(t, phone);
    await call(id);
    const sent = (await outbox(t)).filter((m) => m.to === e164(phone));
    expect(sent).toHaveLength(2);
    for (const sms of sent) expect(sms.body).toContain('Responda 1 (a caminho) ou 9 (sair).');
  });

  it('refuses a reply without From (422 naming it) and changes nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: FORM, payload: form({ Body: '9' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().field).toBe('From');
  });
});

describe.each(stores)('Twilio webhooks, signed, with the Twilio provider on $name', (store) => {
  let fake: FakeTwilio;
  const env = () => twilioEnv(fake.url);
  beforeAll(async () => {
    fake = await startFakeTwilio();
  });
  afterAll(async () => fake.close());
  const t = useTestApp(store, () => ({ PUBLIC_BASE_URL: BASE, ...env() }));
  const host = hostApi(t);

  /** Signed the way Twilio signs, by the `twilio` package's own helper. */
  const signed = (path: string, params: Record<string, string>, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...FORM, 'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(env().SMS_AUTH_TOKEN, BASE + path, params) },
      payload: form(params),
    });
  const inbound = (from: string, body: string, signature?: string, sid = newSid()) =>
    signed(
      '/api/sms/inbound',
      { AccountSid: env().SMS_ACCOUNT_SID, From: from, To: env().SMS_FROM, Body: body, MessageSid: sid, NumMedia: '0' },
      signature,
    );
  const entry = async (id: string) => (await findEntryById(t.db.kysely, id))!;
  const sentTo = (phone: string) => fake.requests.filter((r) => r.form.get('To') === e164(phone));
  const card = async (id: string) => {
    const queue = await host.get('/entries');
    return queue.json().entries.find((e: { _id: string }) => e._id === id);
  };
  const joinAndSend = async (phone: string) => {
    const id = await joinAs(t, phone);
    await t.app.notifier.drain();
    return id;
  };

  it("takes a reply signed with Twilio's own helper", async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    const res = await inbound(e164(phone), '1');
    expect(res.statusCode).toBe(200);
    expect((await entry(id)).reply_kind).toBe('onMyWay');
  });

  it("computes the same signature as Twilio's helper, repeated parameters and non-ASCII text included", () => {
    const url = `${BASE}/api/sms/inbound?x=1`;
    const params = { From: '+5511987650001', Body: 'Já chego, 5 min — ok?', MediaUrl0: 'https://a.example/b?c=d&e=f', To: '+15005550006' };
    expect(twilioSignature('secret-token', url, params)).toBe(twilio.getExpectedTwilioSignature('secret-token', url, params));
  });

  it('refuses a wrong or missing signature with 403 and changes nothing', async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    const wrong = twilio.getExpectedTwilioSignature('another-token', `${BASE}/api/sms/inbound`, { From: e164(phone), Body: '9' });
    expect((await inbound(e164(phone), '9', wrong)).statusCode).toBe(403);
    // Signed for other parameters: the body was changed on the way.
    const forOther = twilio.getExpectedTwilioSignature(env().SMS_AUTH_TOKEN, `${BASE}/api/sms/inbound`, { From: e164(phone), Body: '1' });
    expect((await inbound(e164(phone), '9', forOther)).statusCode).toBe(403);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: FORM,
      payload: form({ From: e164(phone), Body: '9' }),
    });
    expect(missing.statusCode).toBe(403);
    const row = await entry(id);
    expect([row.status, row.reply_kind]).toEqual(['active', null]);
  });

  it('the same inbound SMS delivered twice acts once: one message in the thread, no second confirmation', async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    const sid = newSid();
    const first = await inbound(e164(phone), 'Chego em 5 minutos', undefined, sid);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<Message>');
    const again = await inbound(e164(phone), 'Chego em 5 minutos', undefined, sid);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await entry(id)).unread).toBe(1);
    const thread = await host.get(`/entries/${id}/messages`);
    expect(thread.json().messages.filter((m: { direction: string }) => m.direction === 'in')).toHaveLength(1);
    // A keyword delivered again does not act twice either: the party left once, and the replay is
    // not answered "you are on no list".
    const leave = newSid();
    const other = nextPhone();
    await joinAndSend(other);
    expect((await inbound(e164(other), '9', undefined, leave)).body).toContain('Voce saiu da fila');
    expect((await inbound(e164(other), '9', undefined, leave)).body).not.toContain('<Message>');
  });

  it('a delivery report delivered twice is acted on once, keyed by its sid and status', async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    const providerSid = `SM${String(fake.requests.indexOf(sentTo(phone)[0]!) + 1).padStart(32, '0')}`;
    const status = (MessageStatus: string) =>
      signed('/api/sms/status', { MessageSid: providerSid, MessageStatus, AccountSid: env().SMS_ACCOUNT_SID });
    expect((await status('failed')).statusCode).toBe(204);
    expect((await card(id)).lastMessage.status).toBe('failed');
    // Staff send it again; a replay of the old failure report must not mark the new message failed.
    const failed = (await card(id)).lastMessage._id as string;
    const again = await host.post(`/entries/${id}/messages/${failed}/resend`);
    expect(again.statusCode).toBe(200);
    expect((await status('failed')).statusCode).toBe(204);
    const seen = await t.db.kysely.selectFrom('webhook_sids').select('key').where('key', 'like', `status:${providerSid}:%`).execute();
    expect(seen.map((r) => r.key)).toEqual([`status:${providerSid}:failed`]);
  });

  it('seen sids are pruned by the retention job once 30 days old', async () => {
    const phone = nextPhone();
    await joinAndSend(phone);
    const sid = newSid();
    await inbound(e164(phone), 'Oi', undefined, sid);
    const seen = () => t.db.kysely.selectFrom('webhook_sids').select('key').where('key', '=', `inbound:${sid}`).execute();
    expect(await seen()).toHaveLength(1);
    const options = { retentionHours: 24, openMaxHours: 24 };
    await runRetentionJob(t.app.queueDeps, options, t.clock.now + 29 * 24 * 3_600_000);
    expect(await seen()).toHaveLength(1);
    await runRetentionJob(t.app.queueDeps, options, t.clock.now + 30 * 24 * 3_600_000 + 1);
    expect(await seen()).toEqual([]);
    // That run 30 days on also ended the staff session, expired by then (docs/security.md, Retention).
    t.forgetStaffCookies();
  });

  it('STOP is honoured by the Twilio provider: nothing more reaches Twilio for that phone', async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    expect(sentTo(phone)).toHaveLength(1);
    expect((await inbound(e164(phone), 'STOP')).statusCode).toBe(200);
    await host.post(`/entries/${id}/call`);
    await t.app.notifier.drain();
    expect(sentTo(phone)).toHaveLength(1);
  });

  it('status callbacks record delivery on the card; a failed message can be sent again', async () => {
    const phone = nextPhone();
    const id = await joinAndSend(phone);
    expect((await card(id)).lastMessage.status).toBe('sent');
    const providerSid = `SM${String(fake.requests.indexOf(sentTo(phone)[0]!) + 1).padStart(32, '0')}`;
    const status = (MessageStatus: string, signature?: string) =>
      signed('/api/sms/status', { MessageSid: providerSid, MessageStatus, AccountSid: env().SMS_ACCOUNT_SID }, signature);
    expect((await status('delivered', 'bad')).statusCode).toBe(403);
    expect((await card(id)).lastMessage.status).toBe('sent');
    expect((await status('delivered')).statusCode).toBe(204);
    expect((await card(id)).lastMessage.status).toBe('delivered');
    // A late "sent" does not undo "delivered".
    await status('sent');
    expect((await card(id)).lastMessage.status).toBe('delivered');

    const other = nextPhone();
    const otherId = await joinAndSend(other);
    const otherSid = `SM${String(fake.requests.indexOf(sentTo(other)[0]!) + 1).padStart(32, '0')}`;
    await signed('/api/sms/status', { MessageSid: otherSid, MessageStatus: 'undelivered', ErrorCode: '30003' });
    const failed = await card(otherId);
    expect(failed.lastMessage.status).toBe('failed');
    const again = await host.post(`/entries/${otherId}/messages/${failed.lastMessage._id}/resend`);
    expect(again.statusCode).toBe(200);
    expect(again.json().entry.lastMessage.status).toBe('queued');
    await t.app.notifier.drain();
    expect(sentTo(other)).toHaveLength(2);
    expect(sentTo(other)[1]!.form.get('Body')).toBe(sentTo(other)[0]!.form.get('Body'));
    expect((await card(otherId)).lastMessage.status).toBe('sent');
    // A message of another party is not this one's to send again.
    const foreign = await host.post(`/entries/${id}/messages/${failed.lastMessage._id}/resend`);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('provider webhooks outside the demo, even with NODE_ENV=production (docs/security.md)', () => {
  it('refuses unsigned posts when no SMS_AUTH_TOKEN is set', async () => {
    const t = await startTestApp(stores[0]!, { NODE_ENV: 'production', DEMO: '0', PUBLIC_BASE_URL: BASE, COOKIE_SECRET: 'x'.repeat(40) });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sms/inbound',
        headers: FORM,
        payload: form({ From: '+5511987650001', Body: '9' }),
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
