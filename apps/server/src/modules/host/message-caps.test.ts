import { SMS_MAX_SEGMENTS, defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import type { AppError } from '../../lib/app-error.js';
import { toE164 } from '../../lib/phone.js';
import { callEntry, findEntryById } from '../queue/index.js';

/**
 * What a message may cost and where it may link (docs/security.md, segment cap and template links):
 * checked when the venue saves its texts and when a message is sent.
 */
describe.each(stores)('message caps on $name', (store) => {
  const t = useTestApp(store, { PUBLIC_BASE_URL: 'https://vez.example', SMART_LINK_BASE_URL: 'https://reservas.example/r' });
  const host = hostApi(t);
  const patch = (body: object) => host.patch('/settings', body);
  const saved = async () => (await host.get('/settings')).json();
  const join = async (venueId = DEMO_BISTRO_ID) => {
    const party = await joinParty(t, {}, { venueId });
    return { id: party.id, phone: toE164(party.phone)! };
  };

  it("a template may link only to the site, the venue's menu and its reservation page: another host is a 422 naming the text and the link", async () => {
    const before = await saved();
    for (const [text, link] of [
      ['{venue}: sua vez! Veja https://promo.example/x {link}', 'https://promo.example/x'],
      ['{venue}: sua vez! bit.ly/abc {link}', 'bit.ly/abc'],
      ['{venue}: sua vez! https://vez.example.evil.com/x {link}', 'https://vez.example.evil.com/x'],
    ]) {
      const res = await patch({ settings: { messageTemplates: { call: { pt: text } } } });
      expect(res.statusCode, text).toBe(422);
      expect(res.json()).toMatchObject({ code: 'TEMPLATE_LINK_NOT_ALLOWED', field: 'settings.messageTemplates.call.pt' });
      expect(res.json().message).toContain(link);
    }
    expect(await saved()).toEqual(before);
    const ok = await patch({
      settings: {
        menuUrl: 'https://cardapio.example/bistro',
        messageTemplates: {
          call: { pt: '{venue}: sua vez! Cardápio: https://cardapio.example/bistro Reservas: reservas.example/r {link}' },
          gettingClose: { en: '{venue}: almost there, https://vez.example/help {link}' },
        },
      },
    });
    expect(ok.statusCode).toBe(200);
    // The menu moves elsewhere: the text that links to the old one is named.
    const moved = await patch({ settings: { menuUrl: 'https://menu.example/' } });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().field).toBe('settings.messageTemplates.call.pt');
    expect((await patch({ settings: { messageTemplates: {} } })).statusCode).toBe(200);
  });

  it(`a template past ${SMS_MAX_SEGMENTS} segments with the venue's name and the longest values is a 422 naming it`, async () => {
    // Counted as the SMS goes: with accents kept, 'ã' needs UCS-2 (the option's own test is below).
    expect((await patch({ settings: { smsWithoutAccents: false } })).statusCode).toBe(200);
    const before = await saved();
    // 200 letters that need UCS-2 and the plain link fit 268 units; the longest first name does not.
    const long = `${'ã'.repeat(200)} {link}`;
    expect((await patch({ settings: { messageTemplates: { call: { pt: long } } } })).statusCode).toBe(200);
    const withName = await patch({ settings: { messageTemplates: { call: { pt: `{name} ${long}` } } } });
    expect(withName.statusCode).toBe(422);
    expect(withName.json()).toMatchObject({ code: 'MESSAGE_TOO_LONG', field: 'settings.messageTemplates.call.pt' });
    // The join link carries a login passport: the same text is too long there.
    const join = await patch({ settings: { messageTemplates: { join: { en: long } } } });
    expect(join.json()).toMatchObject({ code: 'MESSAGE_TOO_LONG', field: 'settings.messageTemplates.join.en' });
    // A longer venue name would take a saved text past the cap: the name change names the text.
    expect((await patch({ settings: { messageTemplates: { call: { pt: `{venue} ${'ã'.repeat(190)} {link}` } } } })).statusCode).toBe(200);
    const renamed = await patch({ name: { pt: 'Bistrô Demo do Centro Histórico de São Paulo', en: 'Demo Bistro' } });
    expect(renamed.statusCode).toBe(422);
    expect(renamed.json().field).toBe('settings.messageTemplates.call.pt');
    expect((await saved()).venue.name).toEqual(before.venue.name);
    expect((await patch({ settings: { messageTemplates: {} } })).statusCode).toBe(200);
    expect((await patch({ settings: { smsWithoutAccents: true } })).statusCode).toBe(200);
  });

  it('a venue that writes its SMS without accents (the default) has its texts counted as they go: folded to GSM-7', async () => {
    // 'ã' folds to 'a': the longest first name, 200 letters and the link fit 4 GSM-7 segments.
    const text = `{name} ${'ã'.repeat(200)} {link}`;
    expect((await patch({ settings: { messageTemplates: { call: { pt: text } } } })).statusCode).toBe(200);
    // With the accents kept, the same text would cost more: turning them on names it.
    const kept = await patch({ settings: { smsWithoutAccents: false } });
    expect(kept.statusCode).toBe(422);
    expect(kept.json()).toMatchObject({ code: 'MESSAGE_TOO_LONG', field: 'settings.messageTemplates.call.pt' });
    expect((await patch({ settings: { messageTemplates: {} } })).statusCode).toBe(200);
  });

  it('a staff message past the cap with the venue name is a 422 naming the text; nothing is sent or counted', async () => {
    expect((await patch({ settings: { smsWithoutAccents: false } })).statusCode).toBe(200);
    const party = await join();
    const send = (text: string) => host.post(`/entries/${party.id}/messages`, { text });
    // "Bistrô Demo: " is 13 UCS-2 units: 255 more fit 268.
    const tooLong = await send('a'.repeat(256));
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ code: 'MESSAGE_TOO_LONG', field: 'text' });
    const thread = await host.get(`/entries/${party.id}/messages`);
    expect(thread.json().messages).toEqual([]);
    expect(await t.db.kysely.selectFrom('staff_sends').select('id').where('entry_id', '=', party.id).execute()).toEqual([]);
    expect((await send('a'.repeat(255))).statusCode).toBe(201);
    expect((await outbox(t)).filter((m) => m.to === party.phone).map((m) => m.body)).toContain(`Bistrô Demo: ${'a'.repeat(255)}`);
    // Without accents (the default) "Bistro Demo: " is GSM-7: 256 letters fit 2 segments.
    expect((await patch({ settings: { smsWithoutAccents: true } })).statusCode).toBe(200);
    expect((await send('a'.repeat(256))).statusCode).toBe(201);
  });

  it("a venue's text past the cap at send: the call is refused naming it, the join goes with the built-in text", async () => {
    const long = `{name} ${'ã'.repeat(240)} {link}`;
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, {
      settings: JSON.stringify({
        ...defaultVenueSettings,
        smsWithoutAccents: false,
        messageTemplates: { join: { pt: long }, call: { pt: long } },
      }),
    });
    const party = await join(venueId);
    expect((await outbox(t)).filter((m) => m.to === party.phone).map((m) => m.body)).toEqual([
      expect.stringMatching(/^Bistrô Demo: você está na fila\./),
    ]);
    const entry = (await findEntryById(t.db.kysely, party.id))!;
    const refused = await callEntry(t.app.queueDeps, entry).catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'MESSAGE_TOO_LONG', statusCode: 422, field: 'settings.messageTemplates.call.pt' });
    expect((await findEntryById(t.db.kysely, party.id))!).toMatchObject({ status: 'active', calls: 0 });
  });
});
