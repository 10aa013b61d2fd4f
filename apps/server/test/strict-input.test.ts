import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, createBody, nextPhone, countRows } from './fixtures.js';
import { useTestApp } from './harness.js';
import { sendCode, signUp } from './identity.js';
import { hostApi } from './staff-session.js';
import { stores } from './stores.js';

/**
 * Write bodies are strict and texts are plain (docs/ARCHITECTURE.md, habit 15, docs/security.md): an unknown key
 * is a 422 naming it, control and bidi characters in names, notes and venue texts are a 422 naming
 * the field, impossible dates are refused before the database sees them. Nothing changes.
 */
describe.each(stores.map((store) => [store.name, store] as const))('strict input on %s', (_name, store) => {
  const t = useTestApp(store);
  const host = hostApi(t);
  const joinUrl = `/api/waitlists/${DEMO_BISTRO_ID}/create`;

  const patchSettings = (payload: unknown) => host.patch('/settings', payload as object);
  const getSettings = async () => (await host.get('/settings')).json();
  const join = (payload: unknown) => t.app.inject({ method: 'POST', url: joinUrl, payload: payload as object });
  const entryCount = () => countRows(t.db, 'entries');

  it('a typo in a settings PATCH answers 422 naming the unknown key and changes nothing', async () => {
    const before = await getSettings();
    const res = await patchSettings({ settings: { hidePositon: true } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'settings.hidePositon', message: 'Unknown field: hidePositon' });
    const top = await patchSettings({ hidePosition: true });
    expect(top.json()).toMatchObject({ field: 'hidePosition', message: 'Unknown field: hidePosition' });
    const deep = await patchSettings({ theme: { color: { mian: '#112233' } } });
    expect(deep.json()).toMatchObject({ field: 'theme.color.mian' });
    expect(await getSettings()).toEqual(before);
  });

  it('the host console can send back every field it edits', async () => {
    const s = await getSettings();
    const res = await patchSettings({
      name: s.venue.name,
      address: s.venue.address,
      maxPartySize: s.maxPartySize,
      sections: s.sections,
      hasMenu: s.venue.hasMenu,
      loginJourney: s.venue.hiredServices.loginJourney,
      settings: s.settings,
      theme: s.theme,
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('an unknown key in a join, at any depth, answers 422 naming it and adds no party', async () => {
    const count = await entryCount();
    const nested = await join(createBody({ customer: { name: 'Ana Souza', phone: nextPhone(), nickname: 'Aninha' } }));
    expect(nested.statusCode).toBe(422);
    expect(nested.json()).toMatchObject({ field: 'customer.nickname', message: 'Unknown field: nickname' });
    const top = await join(createBody({ isVip: true }));
    expect(top.json()).toMatchObject({ field: 'isVip' });
    expect(await entryCount()).toBe(count);
  });

  it('a write that takes no body refuses one with keys, and takes {} or none', async () => {
    const created = await join(createBody());
    const entryId = (created.json() as { _id: string })._id;
    const act = (action: string, payload?: object) => host.post(`/entries/${entryId}/${action}`, payload);
    const refused = await act('call', { notify: false });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ field: 'notify', message: 'Unknown field: notify' });
    const status = async () =>
      (await t.db.kysely.selectFrom('entries').select('status').where('id', '=', entryId).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe('active');
    expect((await act('call', {})).statusCode).toBe(200);
    expect((await act('seat')).statusCode).toBe(200);
  });

  it('identity bodies are strict too', async () => {
    const cookie = await signUp(t, nextPhone().replace(/\s/g, ''));
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/product-user',
      headers: { cookie },
      payload: { firstName: 'Ana', nickname: 'x' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ field: 'nickname', message: 'Unknown field: nickname' });
    const send = await t.app.inject({
      method: 'POST',
      url: '/api/otp/send',
      payload: { productName: 'waitlist', channel: 'sms', target: nextPhone(), venueId: DEMO_BISTRO_ID, type: 'validate', tyep: 'x' },
    });
    expect(send.json()).toMatchObject({ statusCode: 422, field: 'tyep' });
  });

  it('control characters in a diner name or note answer 422 naming the field; a line break in a note is fine', async () => {
    const count = await entryCount();
    const nul = await join(createBody({ customer: { name: 'Ana\u0000 Souza', phone: nextPhone() } }));
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toMatchObject({ field: 'customer.name', message: 'Control characters are not allowed in customer.name.' });
    for (const note of ['mesa\u0000', '\u001b[31mvermelho', 'perto \u202ejanela', 'x\u2066y\u2069', '\u0085', 'a\ud800b']) {
      const res = await join(createBody({ note }));
      expect(res.statusCode, JSON.stringify(note)).toBe(422);
      expect(res.json()).toMatchObject({ field: 'note' });
    }
    expect(await entryCount()).toBe(count);
    const multiLine = await join(createBody({ note: 'Apto 12\nEmpresa Exemplo' }));
    expect(multiLine.statusCode, multiLine.body).toBe(201);
    // Right-to-left marks set the direction of neutral characters; they reorder nothing.
    expect((await join(createBody({ note: 'שולחן\u200f 12' }))).statusCode).toBe(201);
  });

  it('bidi overrides and control characters in venue texts and walk-ins answer 422 and change nothing', async () => {
    const before = await getSettings();
    const cases: [unknown, string][] = [
      [{ name: { pt: 'Bistrô \u202eomeD' } }, 'name.pt'],
      [{ name: { pt: 'Bistrô', en: 'Demo\u2067 Bistro' } }, 'name.en'],
      [{ sections: ['Salão', 'Var\u0000anda'] }, 'sections.1'],
      [{ address: { city: 'São\u001b Paulo', neighborhood: 'Centro' } }, 'address.city'],
      [{ settings: { wording: { pt: { joinTitle: 'Entre\u202d na fila' } } } }, 'settings.wording.pt.joinTitle'],
      [{ settings: { menuUrl: 'https://example.com/\u0000' } }, 'settings.menuUrl'],
    ];
    for (const [payload, field] of cases) {
      const res = await patchSettings(payload);
      expect(res.statusCode, field).toBe(422);
      expect(res.json()).toMatchObject({ field });
    }
    expect(await getSettings()).toEqual(before);
    const walkIn = await host.post('/entries', { customer: { name: 'Bruno\u0000 Lima', phone: nextPhone(), email: '' }, partySize: 2 });
    expect(walkIn.json()).toMatchObject({ statusCode: 422, field: 'customer.name' });
  });

  it('impossible dates and NUL in identity fields answer 422, not a database error', async () => {
    const cookie = await signUp(t, nextPhone().replace(/\s/g, ''));
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/product-user', headers: { cookie }, payload });
    for (const birthday of ['0000-00-00', '0000-01-01', '2026-02-30', '1990-13-01', '1850-01-01']) {
      const res = await patch({ birthday });
      expect(res.statusCode, birthday).toBe(422);
      expect(res.json()).toMatchObject({ field: 'birthday' });
    }
    expect((await patch({ gender: 'f\u0000' })).json()).toMatchObject({ statusCode: 422, field: 'gender' });
    expect((await patch({ firstName: 'A\u0000na' })).json()).toMatchObject({ statusCode: 422, field: 'firstName' });
    const ok = await patch({ birthday: '1990-05-17' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ birthday: '1990-05-17' });
    const target = await sendCode(t, { target: '+5511\u000098765432' });
    expect(target.json()).toMatchObject({ statusCode: 422, field: 'target' });
  });

  it('an upload that says multipart but is not (no boundary, cut short) answers 400, not 500', async () => {
    const bodies: [string, string][] = [
      ['multipart/form-data', '{}'],
      ['multipart/form-data; boundary=x', '{}'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'],
    ];
    for (const [type, payload] of bodies) {
      const res = await host.request('POST', '/images', payload, { 'content-type': type });
      expect(res.json(), `${type} ${payload}`).toMatchObject({ statusCode: 400, code: 'MALFORMED_REQUEST', field: 'file' });
    }
  });

  it('a stats day that is not on the calendar answers 422', async () => {
    const res = await host.get('/stats?date=2026-02-30');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ field: 'date' });
  });
});
