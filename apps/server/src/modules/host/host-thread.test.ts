import { STAFF_MESSAGE_MAX_LENGTH } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { joinParty, nextPhone } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { CLUB_HOST, hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { toE164 } from '../../lib/phone.js';

/** Phones as Twilio names them (E.164). */
const e164 = (phone: string): string => toE164(phone)!;

/** Staff write to a party; the diner's page shows it (docs/product.md §7). */
describe.each(stores)('the host thread on $name', (store) => {
  const t = useTestApp(store);
  const host = hostApi(t);
  const join = async (phone = nextPhone()) => (await joinParty(t, { customer: { phone } })).id;
  /** `cookie` stands in for the bistro owner's session ('' for none). */
  const messages = (id: string, method: 'GET' | 'POST', payload?: object, cookie?: string) =>
    host.request(method, `/entries/${id}/messages`, payload, cookie === undefined ? {} : { cookie });
  const position = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json().waitlist;

  it('a message goes by SMS, shows on the diner page newest first, and the thread lists both directions oldest first', async () => {
    const phone = nextPhone();
    const id = await join(phone);
    const first = await messages(id, 'POST', { text: 'Sua mesa fica pronta em 5 minutos.' });
    expect(first.statusCode).toBe(201);
    expect(first.json().message).toMatchObject({ direction: 'out', text: 'Sua mesa fica pronta em 5 minutos.', status: 'queued' });
    await t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ From: e164(phone), Body: 'Obrigado!' }).toString(),
    });
    await messages(id, 'POST', { text: 'Pode vir.' });
    const sms = (await outbox(t)).filter((m) => m.to === e164(phone)).map((m) => m.body);
    // The SMS goes without accents by default (docs/product.md §8); the thread and the page keep them.
    expect(sms).toContain('Bistro Demo: Sua mesa fica pronta em 5 minutos.');
    expect(sms).toContain('Bistro Demo: Pode vir.');
    expect((await position(id)).messages.map((m: { text: string }) => m.text)).toEqual(['Pode vir.', 'Sua mesa fica pronta em 5 minutos.']);
    const thread = (await messages(id, 'GET')).json().messages;
    expect(thread.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ['out', 'Sua mesa fica pronta em 5 minutos.'],
      ['in', 'Obrigado!'],
      ['out', 'Pode vir.'],
    ]);
    // Delivered by the outbox: the card and the thread say sent.
    expect(thread[2].status).toBe('sent');
    const card = (await host.get('/entries')).json().entries.find((e: { _id: string }) => e._id === id);
    expect(card.lastMessage.status).toBe('sent');
    expect(card.unread).toBe(0);
  });

  it(`at most ${STAFF_MESSAGE_MAX_LENGTH} characters, not empty, plain text (422 naming text); nothing sent`, async () => {
    const id = await join();
    for (const text of ['x'.repeat(STAFF_MESSAGE_MAX_LENGTH + 1), '', 'bell\u0007']) {
      const res = await messages(id, 'POST', { text });
      expect(res.statusCode).toBe(422);
      expect(res.json().field).toBe('text');
    }
    // Written without accents (the default), "Bistro Demo: " and 480 characters are 493 GSM-7
    // characters: 4 segments, at the cap (docs/security.md, segment cap; message-caps.test.ts).
    expect((await messages(id, 'POST', { text: 'x'.repeat(STAFF_MESSAGE_MAX_LENGTH) })).statusCode).toBe(201);
    expect((await messages(id, 'GET')).json().messages).toHaveLength(1);
  });

  it('401 without a session, 403 for another venue, 409 once the party has gone', async () => {
    const id = await join();
    expect((await messages(id, 'GET', undefined, '')).statusCode).toBe(401);
    const club = await t.staffCookie(CLUB_HOST);
    expect((await messages(id, 'POST', { text: 'Oi' }, club)).statusCode).toBe(403);
    await host.post(`/entries/${id}/seat`);
    const late = await messages(id, 'POST', { text: 'Oi' });
    expect(late.statusCode).toBe(409);
    expect((await position(id)).messages).toEqual([]);
  });
});
