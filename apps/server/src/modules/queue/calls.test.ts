import { type VenueSettings, defaultVenueSettings } from '@vez/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { type FakeTwilio, outbox, startFakeTwilio, twilioEnv } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { toE164 } from '../../lib/phone.js';
import { callEntry, endEntry, endExpiredHolds, findEntryById, seatEntry } from './index.js';

/** Calls that end well (docs/product.md §8), through the services and the API, on both stores. */
describe.each(stores)('calls that end well on $name', (store) => {
  const t = useTestApp(store);

  const deps = () => t.app.queueDeps;
  /** A venue like the demo bistro, empty, with these settings. */
  const venue = (settings: Partial<VenueSettings>) =>
    addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...defaultVenueSettings, ...settings }) });
  const join = async (venueId: string, lang?: 'en') => {
    const party = await joinParty(t, { ...(lang ? { lang } : {}) }, { venueId });
    return { id: party.id, phone: toE164(party.phone)! };
  };
  const row = async (id: string) => (await findEntryById(t.db.kysely, id))!;
  const smsTo = async (phone: string) => (await outbox(t)).filter((m) => m.to === phone).map((m) => m.body);

  it('calling again: a new message, the window starts again, calls goes up; on the card and the page', async () => {
    const venueId = await venue({ holdMinutes: 15 });
    const party = await join(venueId);
    await callEntry(deps(), await row(party.id));
    t.clock.now += 120_000;
    await callEntry(deps(), await row(party.id));
    const again = await row(party.id);
    expect([again.calls, again.hold_until]).toEqual([2, t.clock.now + 15 * 60_000]);
    const calls = (await smsTo(party.phone)).filter((b) => b.includes('sua vez!'));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain('Va à recepcao em até 15 min.');
    const page = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${party.id}/position` })).json().waitlist;
    expect(page.holdUntil).toBe(new Date(t.clock.now + 15 * 60_000).toISOString());
    expect(page.calls).toBe(2);
  });

  it('holdMinutes 0: no window, and the call says nothing of one', async () => {
    const venueId = await venue({ holdMinutes: 0, autoNoShow: true });
    const party = await join(venueId);
    await callEntry(deps(), await row(party.id));
    expect((await row(party.id)).hold_until).toBeNull();
    expect((await smsTo(party.phone)).find((b) => b.includes('sua vez!'))).not.toContain(' min.');
    t.clock.now += 24 * 3_600_000;
    await endExpiredHolds(deps());
    expect((await row(party.id)).status).toBe('called');
  });

  it('a window that ran out leaves the party called unless the venue marks no-shows itself', async () => {
    const keep = await venue({ holdMinutes: 10, autoNoShow: false });
    const kept = await join(keep);
    await callEntry(deps(), await row(kept.id));
    t.clock.now += 11 * 60_000;
    await endExpiredHolds(deps());
    expect((await row(kept.id)).status).toBe('called');

    const auto = await venue({ holdMinutes: 10, autoNoShow: true });
    const party = await join(auto, 'en');
    await callEntry(deps(), await row(party.id));
    t.clock.now += 9 * 60_000;
    expect(await endExpiredHolds(deps())).toBe(0);
    t.clock.now += 2 * 60_000;
    expect(await endExpiredHolds(deps())).toBe(1);
    expect(await endExpiredHolds(deps())).toBe(0);
    const ended = await row(party.id);
    expect([ended.status, ended.cancel_reason]).toEqual(['cancelled', 'NoShow']);
    const told = (await smsTo(party.phone)).filter((b) => b.includes('could not hold your table'));
    expect(told).toHaveLength(1);
  });

  it('"I need more time" while called moves the window, and the job respects it', async () => {
    const auto = await venue({ holdMinutes: 10, autoNoShow: true });
    const party = await join(auto);
    await callEntry(deps(), await row(party.id));
    await t.app.inject({
      method: 'POST',
      url: `/api/waitlists/${party.id}/${auto}/reply`,
      payload: { reply: 'needMoreTime', minutes: 15 },
    });
    t.clock.now += 20 * 60_000;
    await endExpiredHolds(deps());
    expect((await row(party.id)).status).toBe('called');
    t.clock.now += 6 * 60_000;
    await endExpiredHolds(deps());
    expect((await row(party.id)).status).toBe('cancelled');
  });

  it('one getting-close message when a party reaches gettingCloseAt from the front: never twice, never after a call', async () => {
    const venueId = await venue({ gettingCloseAt: 2 });
    const parties = [];
    for (let i = 0; i < 5; i++) parties.push(await join(venueId));
    const close = async (p: { phone: string }) => (await smsTo(p.phone)).filter((b) => b.includes('falta pouco'));
    // The first two joined already that close: no message for them, ever.
    await seatEntry(deps(), await row(parties[0]!.id));
    expect(await close(parties[0]!)).toEqual([]);
    expect(await close(parties[1]!)).toEqual([]);
    // Parties 3 is now second: one message, with its place.
    expect(await close(parties[2]!)).toEqual([expect.stringContaining('Sua posicao na fila: 2.')]);
    // Party 4 is called before it gets close: no message after a call.
    await callEntry(deps(), await row(parties[3]!.id));
    await endEntry(deps(), await row(parties[1]!.id), 'cancel', 'Host');
    expect(await close(parties[3]!)).toEqual([]);
    // Party 5 is second now (party 4 is called, not waiting): one message, once.
    expect(await close(parties[4]!)).toHaveLength(1);
    await seatEntry(deps(), await row(parties[2]!.id));
    expect(await close(parties[4]!)).toHaveLength(1);
    expect(await close(parties[2]!)).toHaveLength(1);
  });

  it('gettingCloseAt 0 sends none; the seated message only when the venue asks for it', async () => {
    const off = await venue({ gettingCloseAt: 0, seatedMessage: false });
    const a = await join(off);
    const b = await join(off);
    await seatEntry(deps(), await row(a.id));
    expect((await smsTo(b.phone)).some((x) => x.includes('falta pouco'))).toBe(false);
    expect((await smsTo(a.phone)).some((x) => x.includes('bom apetite'))).toBe(false);
    const on = await venue({ seatedMessage: true });
    const c = await join(on, 'en');
    await seatEntry(deps(), await row(c.id));
    expect((await smsTo(c.phone)).filter((x) => x.includes('enjoy your meal'))).toHaveLength(1);
  });

  it("the venue's own texts: the {link} rule and known variables (422 naming the text), the next SMS says them, defaults come back", async () => {
    const patch = (messageTemplates: object) => hostApi(t).patch('/settings', { settings: { messageTemplates } });
    const noLink = await patch({ join: { pt: '{venue}: você entrou na fila.' } });
    expect(noLink.statusCode).toBe(422);
    expect(noLink.json().field).toBe('settings.messageTemplates.join.pt');
    const typo = await patch({ call: { en: '{venue}: your turn, {nome}!' } });
    expect(typo.statusCode).toBe(422);
    expect(typo.json().field).toBe('settings.messageTemplates.call.en');
    const ok = await patch({
      join: { pt: 'Oi {name}! Você está na fila do {venue}: {link}', en: 'Hi {name}, you are in line at {venue}: {link}' },
      call: { pt: '{name}, sua mesa está pronta ({hold} min). {link}' },
    });
    expect(ok.statusCode).toBe(200);
    const pt = await join(DEMO_BISTRO_ID);
    // The venue's own text goes without accents too, by default (docs/product.md §8).
    expect(await smsTo(pt.phone)).toEqual([`Oi Ana! Voce esta na fila do Bistro Demo: http://localhost:3000/waitlist/${pt.id}`]);
    const en = await join(DEMO_BISTRO_ID, 'en');
    expect(await smsTo(en.phone)).toEqual([`Hi Ana, you are in line at Demo Bistro: http://localhost:3000/waitlist/${en.id}`]);
    await callEntry(deps(), await row(pt.id));
    expect((await smsTo(pt.phone))[0]).toBe(`Ana, sua mesa esta pronta (10 min). http://localhost:3000/waitlist/${pt.id}`);
    // The English call has no text of the venue's: the built-in one.
    await callEntry(deps(), await row(en.id));
    expect((await smsTo(en.phone))[0]).toMatch(/^Demo Bistro: your turn!/);
    expect((await patch({})).statusCode).toBe(200);
    const back = await join(DEMO_BISTRO_ID);
    expect((await smsTo(back.phone))[0]).toMatch(/^Bistro Demo: voce esta na fila\./);
  });

  it('refuses settings out of range (422 naming them), and staff change them through the API', async () => {
    const patch = (settings: object) => hostApi(t).patch('/settings', { settings });
    for (const [settings, field] of [
      [{ holdMinutes: 500 }, 'settings.holdMinutes'],
      [{ gettingCloseAt: -1 }, 'settings.gettingCloseAt'],
      [{ channel: 'pigeon' }, 'settings.channel'],
      [{ autoNoShow: 'yes' }, 'settings.autoNoShow'],
    ] as const) {
      const res = await patch(settings);
      expect(res.statusCode, JSON.stringify(settings)).toBe(422);
      expect(res.json().field).toBe(field);
    }
    const ok = await patch({ holdMinutes: 5, autoNoShow: true, gettingCloseAt: 4, seatedMessage: true, channel: 'sms' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().settings).toMatchObject({ holdMinutes: 5, autoNoShow: true, gettingCloseAt: 4, seatedMessage: true, channel: 'sms' });
    await patch({ holdMinutes: 10, autoNoShow: false, gettingCloseAt: 3, seatedMessage: false });
  });
});

const JOIN_TEMPLATE = `HX${'0'.repeat(31)}1`;

describe.each(stores)('WhatsApp through the Twilio-compatible provider on $name', (store) => {
  let fake: FakeTwilio;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    fake.whatsapp.templates.add(JOIN_TEMPLATE);
  });
  afterAll(async () => fake.close());
  const t = useTestApp(store, () => ({
    ...twilioEnv(fake.url),
    SMS_WHATSAPP_FROM: '+14155238886',
    WHATSAPP_TEMPLATES: JSON.stringify({ join: { pt: { sid: JOIN_TEMPLATE, vars: ['venue', 'link'] } } }),
  }));

  it('a venue on WhatsApp sends from and to whatsapp: addresses through the same Messages API', async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, {
      settings: JSON.stringify({ ...defaultVenueSettings, channel: 'whatsapp' }),
    });
    const phone = nextPhone();
    const res = await postJoin(t, { customer: { name: 'Ana Souza', phone }, whatsappOptIn: true }, { venueId });
    expect(res.statusCode).toBe(201);
    await t.app.notifier.drain();
    const sent = fake.requests.filter((r) => r.form.get('To') === `whatsapp:${toE164(phone)}`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
    expect(sent[0]!.form.get('From')).toBe('whatsapp:+14155238886');
    // The join goes as the approved template, every accent kept, never as Body (docs/product.md §10).
    expect(sent[0]!.form.get('Body')).toBeNull();
    expect(sent[0]!.form.get('ContentSid')).toBe(JOIN_TEMPLATE);
    expect(JSON.parse(sent[0]!.form.get('ContentVariables')!)).toEqual({ '1': 'Bistrô Demo', '2': expect.stringMatching(/\/waitlist\//) });
    // A reply from WhatsApp names the sender as whatsapp:+…: it reaches the same entry.
    const id = res.json()._id as string;
    const params = { From: `whatsapp:${toE164(phone)}`, Body: 'sim' };
    const { getExpectedTwilioSignature } = (await import('twilio')).default;
    const signature = getExpectedTwilioSignature('secret-token', 'http://localhost:3000/api/sms/inbound', params);
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      payload: new URLSearchParams(params).toString(),
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('<Message>Bistrô Demo já sabe que você está a caminho.</Message>');
    expect((await findEntryById(t.db.kysely, id))?.reply_kind).toBe('onMyWay');
  });
});
