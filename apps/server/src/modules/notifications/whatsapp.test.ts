import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { type FakeTwilio, startFakeTwilio, twilioEnv } from '../../../test/identity.js';
import { loginCookie } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { setVenueSettings } from '../../../test/venues.js';
import { asksForWhatsApp, loadConfig } from '../../config.js';
import { toE164 } from '../../lib/phone.js';
import { WHATSAPP_WINDOW_MS } from './whatsapp.js';

/**
 * Messages that arrive in Brazil (docs/product.md §10, docs/decisions/029-whatsapp-templates.md),
 * against a fake of Twilio's Messages API that keeps WhatsApp's rules (test/identity.ts).
 */

const BASE = 'https://vez.example';
const sid = (n: number) => `HX${String(n).padStart(32, '0')}`;
const TEMPLATES = {
  join: { pt: { sid: sid(1), vars: ['name', 'venue', 'link'] }, en: { sid: sid(2), vars: ['venue', 'link'] } },
  call: { pt: { sid: sid(3), vars: ['name', 'venue', 'hold', 'link'] } },
  // Configured here but never approved at the provider: Twilio refuses the unknown ContentSid.
  seated: { pt: { sid: sid(4), vars: ['venue'] } },
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const e164 = (phone: string) => toE164(phone)!;

describe('WHATSAPP_TEMPLATES is validated once, at start', () => {
  it('reads kind → language → {sid, vars}', () => {
    const config = loadConfig({ WHATSAPP_TEMPLATES: JSON.stringify(TEMPLATES) });
    expect(config.WHATSAPP_TEMPLATES.call?.pt).toEqual({ sid: sid(3), vars: ['name', 'venue', 'hold', 'link'] });
    expect(loadConfig({}).WHATSAPP_TEMPLATES).toEqual({});
  });

  it('a venue asks for consent only when the join template exists in every language of the pages', () => {
    expect(asksForWhatsApp(loadConfig({ WHATSAPP_TEMPLATES: JSON.stringify(TEMPLATES) }).WHATSAPP_TEMPLATES)).toBe(true);
    // A party joining in English would get its join by SMS while the dialog said WhatsApp.
    const ptOnly = { join: { pt: TEMPLATES.join.pt }, call: TEMPLATES.call };
    expect(asksForWhatsApp(loadConfig({ WHATSAPP_TEMPLATES: JSON.stringify(ptOnly) }).WHATSAPP_TEMPLATES)).toBe(false);
    expect(asksForWhatsApp({})).toBe(false);
  });

  it('templates with the Twilio provider need the WhatsApp sender', () => {
    const env = { ...twilioEnv('http://127.0.0.1:9'), WHATSAPP_TEMPLATES: JSON.stringify(TEMPLATES) };
    expect(() => loadConfig(env)).toThrow(/SMS_WHATSAPP_FROM: required when WHATSAPP_TEMPLATES names templates/);
    expect(loadConfig({ ...env, SMS_WHATSAPP_FROM: '+14155238886' }).WHATSAPP_TEMPLATES.join?.pt?.sid).toBe(sid(1));
  });

  it.each([
    ['{not json', /WHATSAPP_TEMPLATES: must be JSON/],
    [JSON.stringify({ cal: { pt: { sid: sid(1), vars: [] } } }), /WHATSAPP_TEMPLATES/],
    [JSON.stringify({ call: { es: { sid: sid(1), vars: [] } } }), /WHATSAPP_TEMPLATES/],
    [JSON.stringify({ call: { pt: { sid: 'SM123', vars: [] } } }), /WHATSAPP_TEMPLATES\.call\.pt\.sid: sid must be a Content template sid/],
    [JSON.stringify({ call: { pt: { sid: sid(1), vars: ['table'] } } }), /WHATSAPP_TEMPLATES\.call\.pt\.vars\.0/],
    [
      JSON.stringify({ join: { pt: { sid: sid(1), vars: ['name'] } } }),
      /WHATSAPP_TEMPLATES\.join\.pt\.vars: the join template must fill a slot with "link"/,
    ],
  ])('refuses %s with a message that names it', (value, message) => {
    expect(() => loadConfig({ WHATSAPP_TEMPLATES: value })).toThrow(message);
  });
});

describe.each(stores)('WhatsApp by approved templates, consent, window and SMS fallback on $name', (store) => {
  let fake: FakeTwilio;
  let staff: string;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    for (const kind of ['join', 'call'] as const)
      for (const template of Object.values(TEMPLATES[kind])) fake.whatsapp.templates.add(template.sid);
  });
  afterAll(async () => fake.close());
  const t = useTestApp(store, () => ({
    PUBLIC_BASE_URL: BASE,
    ...twilioEnv(fake.url),
    SMS_WHATSAPP_FROM: '+14155238886',
    WHATSAPP_TEMPLATES: JSON.stringify(TEMPLATES),
  }));
  beforeAll(async () => {
    staff = await loginCookie(t.app);
    await setVenueSettings(t, { channel: 'whatsapp', seatedMessage: true });
  });

  const host = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/host/venues/${DEMO_BISTRO_ID}${path}`,
      headers: { cookie: staff },
      ...(payload ? { payload } : {}),
    });
  const join = async (phone: string, extra: Record<string, unknown> = {}) => {
    const res = await postJoin(t, { customer: { name: 'Joana Prado', phone }, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.notifier.drain();
    return res.json()._id as string;
  };
  const sentTo = (phone: string) =>
    fake.requests
      .filter((r) => [e164(phone), `whatsapp:${e164(phone)}`].includes(r.form.get('To') ?? ''))
      .map((r) => Object.fromEntries(r.form));
  const card = async (id: string) => (await host('GET', '/entries')).json().entries.find((e: { _id: string }) => e._id === id);
  /** Delivers the status callbacks the fake would post, signed as Twilio signs them. */
  const deliverCallbacks = async () => {
    for (const callback of fake.callbacks.splice(0)) {
      const res = await t.app.inject({
        method: 'POST',
        url: new URL(callback.url).pathname,
        headers: { ...FORM, 'x-twilio-signature': callback.signature },
        payload: new URLSearchParams(callback.params).toString(),
      });
      expect(res.statusCode).toBe(204);
    }
    await t.app.notifier.drain();
  };
  /** The party writes on WhatsApp: Twilio's inbound webhook, signed as Twilio signs it. */
  const inboundWhatsApp = (phone: string, body: string) => {
    const params = {
      From: `whatsapp:${e164(phone)}`,
      To: 'whatsapp:+14155238886',
      Body: body,
      MessageSid: `SM${randomBytes(16).toString('hex')}`,
    };
    const signature = twilio.getExpectedTwilioSignature('secret-token', `${BASE}/api/sms/inbound`, params);
    return t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { ...FORM, 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });
  };

  it('the venue tells the join page its channel', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
    expect(res.json()).toMatchObject({ channel: 'whatsapp', settings: { channel: 'whatsapp' } });
  });

  it('a party that said yes gets its join as the approved template: ContentSid and ContentVariables, never Body', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true });
    const [sent, ...more] = sentTo(phone);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ To: `whatsapp:${e164(phone)}`, From: 'whatsapp:+14155238886', ContentSid: sid(1) });
    expect(sent).not.toHaveProperty('Body');
    expect(JSON.parse(sent!.ContentVariables!)).toEqual({ '1': 'Joana', '2': 'Bistrô Demo', '3': `${BASE}/waitlist/${id}` });
    expect(await card(id)).toMatchObject({ whatsappOptIn: true, lastMessage: { status: 'sent', channel: 'whatsapp' } });
  });

  it('without consent the party gets SMS, without accents', async () => {
    const phone = nextPhone();
    const id = await join(phone);
    expect(sentTo(phone)).toEqual([
      expect.objectContaining({ To: e164(phone), Body: expect.stringMatching(/^Bistro Demo: voce esta na fila/) }),
    ]);
    expect(await card(id)).toMatchObject({ whatsappOptIn: false, lastMessage: { channel: 'sms' } });
  });

  it('a kind or language without a template goes by SMS', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true, lang: 'en' });
    expect(sentTo(phone).map((m) => m.ContentSid)).toEqual([sid(2)]);
    // No "getting close" template is configured: that one goes by SMS.
    await setVenueSettings(t, { gettingCloseAt: 0 });
    expect((await host('POST', `/entries/${id}/call`)).statusCode).toBe(200);
    await t.app.notifier.drain();
    // No English call template either.
    expect(sentTo(phone).at(-1)).toMatchObject({ To: e164(phone), Body: expect.stringMatching(/your turn/) });
  });

  it('the call fills its template with the venue’s hold minutes', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true });
    await host('POST', `/entries/${id}/call`);
    await t.app.notifier.drain();
    const call = sentTo(phone).at(-1)!;
    expect(call.ContentSid).toBe(sid(3));
    expect(JSON.parse(call.ContentVariables!)).toEqual({ '1': 'Joana', '2': 'Bistrô Demo', '3': '10', '4': `${BASE}/waitlist/${id}` });
  });

  it('a number without WhatsApp (63003) gets the message once by SMS; the card shows both attempts', async () => {
    const phone = nextPhone();
    fake.whatsapp.withoutWhatsApp.add(e164(phone));
    const id = await join(phone, { whatsappOptIn: true });
    await t.app.notifier.drain();
    const sent = sentTo(phone);
    expect(sent.map((m) => m.To)).toEqual([`whatsapp:${e164(phone)}`, e164(phone)]);
    expect(sent[1]).toMatchObject({
      Body: expect.stringMatching(/^Bistro Demo: voce esta na fila\. Acompanhe: https:\/\/vez\.example\/waitlist\//),
    });
    expect(await card(id)).toMatchObject({ lastMessage: { status: 'sent', channel: 'sms', fallbackFrom: 'whatsapp' } });
    const rows = await t.db.kysely
      .selectFrom('messages')
      .select(['recipient', 'status', 'error', 'fallback_of'])
      .where('entry_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { recipient: `whatsapp:${e164(phone)}`, status: 'failed', error: 'twilio answered 400 code 63003', fallback_of: null },
      expect.objectContaining({ recipient: e164(phone), status: 'sent', fallback_of: expect.any(String) }),
    ]);
  });

  it('a template the provider does not know is refused and goes by SMS', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true });
    await host('POST', `/entries/${id}/seat`);
    await t.app.notifier.drain();
    expect(
      sentTo(phone)
        .slice(-2)
        .map((m) => [m.To, m.ContentSid ?? m.Body]),
    ).toEqual([
      [`whatsapp:${e164(phone)}`, sid(4)],
      [e164(phone), expect.stringMatching(/bom apetite/)],
    ]);
  });

  it('staff free text goes by SMS outside the window, by WhatsApp inside it, and by SMS again 24 h after', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true });
    const write = async (text: string) => {
      const res = await host('POST', `/entries/${id}/messages`, { text });
      expect(res.statusCode).toBe(201);
      await t.app.notifier.drain();
      return res.json().message;
    };
    expect(await write('Sua mesa está quase pronta.')).toMatchObject({ channel: 'sms' });
    expect(sentTo(phone).at(-1)).toEqual(expect.objectContaining({ To: e164(phone), Body: 'Bistro Demo: Sua mesa esta quase pronta.' }));
    // The party writes on WhatsApp: the customer-service window opens.
    expect((await inboundWhatsApp(phone, 'Estou chegando')).statusCode).toBe(200);
    fake.whatsapp.windowOpen.add(e164(phone));
    expect(await write('Pode vir, a mesa está pronta.')).toMatchObject({ channel: 'whatsapp' });
    expect(sentTo(phone).at(-1)).toEqual(
      expect.objectContaining({ To: `whatsapp:${e164(phone)}`, Body: 'Bistrô Demo: Pode vir, a mesa está pronta.' }),
    );
    expect(sentTo(phone).at(-1)).not.toHaveProperty('ContentSid');
    t.clock.now += WHATSAPP_WINDOW_MS;
    staff = await loginCookie(t.app);
    expect(await write('Ainda vem?')).toMatchObject({ channel: 'sms' });
    t.clock.now = Date.now();
    staff = await loginCookie(t.app);
  });

  it('free text reported failed (63016) by a signed status callback goes once by SMS; the thread shows both', async () => {
    const phone = nextPhone();
    const id = await join(phone, { whatsappOptIn: true });
    // Our window is open, but the platform's has closed (its clock decides): Twilio accepts, then reports 63016.
    await inboundWhatsApp(phone, 'Oi');
    fake.callbacks.splice(0);
    const res = await host('POST', `/entries/${id}/messages`, { text: 'Sua mesa está pronta.' });
    await t.app.notifier.drain();
    expect(res.json().message).toMatchObject({ channel: 'whatsapp', status: 'queued' });
    expect(fake.callbacks).toHaveLength(1);
    const callback = fake.callbacks[0]!;
    await deliverCallbacks();
    // Twilio may post the same report again: it acts once.
    fake.callbacks.push(callback);
    await deliverCallbacks();
    expect(
      sentTo(phone)
        .slice(-2)
        .map((m) => m.To),
    ).toEqual([`whatsapp:${e164(phone)}`, e164(phone)]);
    expect(sentTo(phone).at(-1)).toMatchObject({ Body: 'Bistro Demo: Sua mesa esta pronta.' });
    const thread = (await host('GET', `/entries/${id}/messages`)).json().messages;
    expect(thread.at(-1)).toMatchObject({ direction: 'out', status: 'sent', channel: 'sms', fallbackFrom: 'whatsapp' });
    expect(await card(id)).toMatchObject({ lastMessage: { channel: 'sms', fallbackFrom: 'whatsapp', status: 'sent' } });
  });

  it('a status callback not signed by the auth token changes nothing', async () => {
    const params = { MessageSid: `SM${randomBytes(16).toString('hex')}`, MessageStatus: 'failed', ErrorCode: '63016' };
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sms/status',
      headers: { ...FORM, 'x-twilio-signature': 'forged' },
      payload: new URLSearchParams(params).toString(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('the walk-in body carries the consent; it is stored and shown on the card', async () => {
    const yes = await host('POST', '/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2, whatsappOptIn: true });
    expect(yes.json().entry).toMatchObject({ whatsappOptIn: true });
    const no = await host('POST', '/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2 });
    expect(no.json().entry).toMatchObject({ whatsappOptIn: false });
    const bad = await host('POST', '/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2, whatsappOptIn: 'sim' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().field).toBe('whatsappOptIn');
  });
});
