import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { updateVenue } from '../venues/venues.repository.js';

const MISSING_ENTRY = 'AAAAAAAAAAAAAAAAAAAAAA';

describe.each(stores)('host queue API on $name', (store) => {
  const t = useTestApp(store);
  const host = hostApi(t);
  const walkIn = (extra: Record<string, unknown> = {}) =>
    host.post('/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2, ...extra });
  const queue = async () => (await host.get('/entries')).json();

  it('lists the live queue in order, with personal data and positions', async () => {
    const res = await host.get('/entries');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.waitlist).toEqual({ active: true, locked: false });
    expect(body.entries.map((e: { name: string }) => e.name)).toEqual(['Marina Albuquerque', 'Rafael Nogueira', 'Carla Menezes']);
    expect(body.entries.map((e: { globalPos: number }) => e.globalPos)).toEqual([1, 2, 3]);
    expect(body.entries[0]).toMatchObject({
      phone: '+5511987650001',
      partySize: 2,
      status: 'active',
      customerTab: '1',
      originLabel: 'Host',
    });
  });

  it('adds a walk-in with origin Host; priority goes first; the diner position agrees', async () => {
    const res = await walkIn({ priority: true, note: 'cadeira de bebê' });
    expect(res.statusCode).toBe(201);
    const { entry, created } = res.json();
    expect(created).toBe(true);
    expect(entry).toMatchObject({ originLabel: 'Host', priority: true, globalPos: 1, note: 'cadeira de bebê', name: 'Rui Costa' });
    expect((await queue()).entries[0]._id).toBe(entry._id);
    const position = await t.app.inject({ method: 'GET', url: `/api/waitlists/${entry._id}/position` });
    expect(position.json().waitlist).toMatchObject({ globalPos: 1, origin: { label: 'Host' } });
  });

  it.each([
    [{ customer: { name: '  ', phone: '+5511987654321' }, partySize: 2 }, 'customer.name'],
    [{ customer: { name: 'Rui Costa', phone: '12' }, partySize: 2 }, 'customer.phone'],
    [{ customer: { name: 'Rui Costa', phone: '+5511987654321' }, partySize: 0 }, 'partySize'],
    [{ customer: { name: 'Rui Costa', phone: '+5511987654321' }, partySize: 99 }, 'partySize'],
  ])('refuses a bad walk-in %j with 422 and adds nothing', async (payload, field) => {
    const before = (await queue()).entries.length;
    const res = await host.post('/entries', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect((await queue()).entries.length).toBe(before);
  });

  it('calls, then seats a party; a seated party cannot be called', async () => {
    const id = (await walkIn()).json().entry._id;
    const called = await host.post(`/entries/${id}/call`);
    expect(called.statusCode).toBe(200);
    expect(called.json().entry).toMatchObject({ status: 'called', globalPos: 0, notifiedAt: expect.any(String) });
    const seated = await host.post(`/entries/${id}/seat`);
    expect(seated.json().entry.status).toBe('seated');
    expect((await queue()).entries.some((e: { _id: string }) => e._id === id)).toBe(false);
    const again = await host.post(`/entries/${id}/call`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ENTRY_NOT_ACTIVE');
  });

  it('cancels with a reason (no-show) and validates the reason', async () => {
    const id = (await walkIn()).json().entry._id;
    expect((await host.post(`/entries/${id}/cancel`, { reason: 'Customer' })).statusCode).toBe(422);
    expect((await host.post(`/entries/${id}/cancel`, {})).statusCode).toBe(422);
    const res = await host.post(`/entries/${id}/cancel`, { reason: 'NoShow' });
    expect(res.statusCode).toBe(200);
    const status = await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/${DEMO_BISTRO_ID}/status` });
    expect(status.json()).toMatchObject({ status: 'cancelled', cancelReason: 'NoShow' });
    expect((await host.post(`/entries/${id}/cancel`, { reason: 'Host' })).statusCode).toBe(409);
  });

  it('edits party size, note and priority; refuses an empty or out-of-range edit', async () => {
    const { _id: id, globalPos: before } = (await walkIn()).json().entry;
    const res = await host.patch(`/entries/${id}`, { partySize: 6, note: 'janela', priority: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().entry).toMatchObject({ partySize: 6, note: 'janela', priority: true });
    expect(res.json().entry.globalPos).toBeLessThan(before);
    expect((await host.patch(`/entries/${id}`, { note: '' })).json().entry.note).toBeNull();
    expect((await host.patch(`/entries/${id}`, {})).statusCode).toBe(422);
    const tooBig = await host.patch(`/entries/${id}`, { partySize: 9 });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().field).toBe('partySize');
    expect((await host.patch(`/entries/${id}`, { note: 'x'.repeat(256) })).statusCode).toBe(422);
  });

  it('answers 404 for an unknown entry or one of another venue, 400 for a malformed id', async () => {
    expect((await host.post(`/entries/${MISSING_ENTRY}/call`)).statusCode).toBe(404);
    expect((await host.patch(`/entries/${MISSING_ENTRY}`, { priority: true })).statusCode).toBe(404);
    expect((await host.post(`/entries/${MISSING_ENTRY}/seat`)).json().code).toBe('NOT_FOUND');
    expect((await host.post(`/entries/${MISSING_ENTRY}/cancel`, { reason: 'Host' })).statusCode).toBe(404);
    expect((await host.post('/entries/bad-id/call')).json().code).toBe('INVALID_WAITLISTID_FORMAT');
    const clubEntry = await postJoin(
      t,
      { customer: { name: 'Lia Prado', phone: nextPhone(), email: 'lia@example.com' }, note: 'Localização: Bar' },
      { venueId: DEMO_CLUB_ID },
    );
    expect(clubEntry.statusCode).toBe(201);
    expect((await host.post(`/entries/${clubEntry.json()._id}/call`)).statusCode).toBe(404);
  });

  it('locks and closes the waitlist; diners are refused, staff still add walk-ins while locked', async () => {
    expect((await host.put('/waitlist', { active: true })).statusCode).toBe(422);
    const locked = await host.put('/waitlist', { active: true, locked: true });
    expect(locked.json()).toEqual({ waitlist: { active: true, locked: true } });
    const statuses = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses` });
    expect(statuses.json()).toEqual({ waitlist: { active: true, locked: true } });
    const diner = await postJoin(t);
    expect(diner.json().code).toBe('WAITLIST_LOCKED');
    expect((await walkIn()).statusCode).toBe(201);
    await host.put('/waitlist', { active: false, locked: false });
    expect((await walkIn()).json().code).toBe('WAITLIST_STATUS_NOT_ACTIVE');
    await host.put('/waitlist', { active: true, locked: false });
    expect((await postJoin(t)).statusCode).toBe(201);
  });

  it('reads and changes venue, settings and theme; the public reads follow', async () => {
    const read = await host.get('/settings');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      venue: { _id: DEMO_BISTRO_ID, slug: 'bistro-demo' },
      maxPartySize: 8,
      sections: [],
      settings: { hidePosition: false },
      theme: { typeImageSpotlight: 'banners' },
      waitlist: { active: true },
    });
    const res = await host.patch('/settings', {
      maxPartySize: 10,
      settings: { hidePosition: true },
      theme: { color: { main: '#112233' } },
      name: { pt: 'Bistrô Novo', en: 'New Bistro' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      maxPartySize: 10,
      settings: { hidePosition: true, emailRequired: false },
      theme: { color: { main: '#112233', background: '#fdf6ec' } },
      venue: { name: { pt: 'Bistrô Novo' } },
    });
    const venue = (await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` })).json();
    expect(venue).toMatchObject({ name: { pt: 'Bistrô Novo', en: 'New Bistro' }, settings: { hidePosition: true } });
    const sizes = (await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/party-sizes` })).json();
    expect(sizes[0].partySizesWidget.max).toBe(10);
  });

  it.each([
    [{ theme: { color: { main: 'red' } } }, 'theme.color.main'],
    [{ maxPartySize: 0 }, 'maxPartySize'],
    [{ settings: { operationMode: 'fast' } }, 'settings.operationMode'],
    [{ slug: 'clube-demo' }, 'slug'],
    [{ settings: { sectionMode: 'required' } }, 'settings.sectionMode'],
    // Links a diner follows are http(s) or a path on this site (docs/security.md).
    [{ settings: { menuUrl: 'javascript:alert(document.cookie)' } }, 'settings.menuUrl'],
    [{ settings: { menuUrl: 'data:text/html,<script>alert(1)</script>' } }, 'settings.menuUrl'],
    [{ settings: { menuUrl: '//evil.example/menu' } }, 'settings.menuUrl'],
    [{ settings: { menuUrl: '/\\evil.example/menu' } }, 'settings.menuUrl'],
    [{ settings: { reservationUrl: 'JavaScript:alert(1)' } }, 'settings.reservationUrl'],
    [{ settings: { reservationUrl: 'vbscript:msgbox' } }, 'settings.reservationUrl'],
    [{ settings: { reservationUrl: 'ftp://files.example/r' } }, 'settings.reservationUrl'],
  ])('refuses settings %j with 422 and changes nothing', async (payload, field) => {
    const before = (await host.get('/settings')).json();
    const res = await host.patch('/settings', payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().field).toBe(field);
    expect((await host.get('/settings')).json()).toEqual(before);
  });

  it('takes http(s) and same-site links for the menu and reservations', async () => {
    for (const settings of [
      { menuUrl: 'https://bistro.example/menu.pdf', reservationUrl: 'http://reservas.example/bistro' },
      { menuUrl: '/images/demo/menu.svg', reservationUrl: null },
    ]) {
      const res = await host.patch('/settings', { settings });
      expect(res.statusCode).toBe(200);
      expect(res.json().settings).toMatchObject(settings);
    }
  });

  it('never hands a diner a link stored before links were checked', async () => {
    const row = await t.db.kysely.selectFrom('venues').select('settings').where('id', '=', DEMO_CLUB_ID).executeTakeFirstOrThrow();
    const settings = { ...JSON.parse(row.settings), menuUrl: 'javascript:alert(1)', reservationUrl: 'data:text/html,x' };
    await updateVenue(t.db.kysely, DEMO_CLUB_ID, { settings: JSON.stringify(settings) });
    const venue = (await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_CLUB_ID}` })).json();
    expect(venue.settings).toMatchObject({ menuUrl: null, reservationUrl: null });
    expect(venue.reservationUrl).toMatch(/^https:\/\//);
  });

  it('club staff run their own venue', async () => {
    const res = await hostApi(t, DEMO_CLUB_ID).get('/entries');
    expect(res.statusCode).toBe(200);
    expect(res.json().venueId).toBe(DEMO_CLUB_ID);
  });
});
