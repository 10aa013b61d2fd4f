import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody, nextPhone, countRows } from '../../../test/fixtures.js';
import { stores } from '../../../test/stores.js';
import type { VenueRowUpdate } from '../../db/types.js';
import { updateVenue } from '../venues/venues.repository.js';
import { addVenueLike } from '../../../test/venues.js';
import { findEntryById } from '../queue/index.js';
import { announceVenueUpdate, callEntry, seatEntry } from '../queue/index.js';

const UNKNOWN_VENUE = 'aaaaaaaaaaaaaaaaaaaaaaaa';

describe.each(stores)('waitlist API on $name', (store) => {
  const t = useTestApp(store);

  const join = (body: unknown, venue = DEMO_BISTRO_ID) =>
    t.app.inject({ method: 'POST', url: `/api/waitlists/${venue}/create`, payload: body as object });
  const position = (id: string, query = '') => t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position${query}` });
  const countEntries = () => countRows(t.db, 'entries');
  // As the host routes do: write the venue, then announce the change, which voids every kept
  // answer of the venue (modules/queue/queue-caches.ts).
  const setVenue = async (id: string, patch: VenueRowUpdate) => {
    await updateVenue(t.db.kysely, id, patch);
    announceVenueUpdate(t.app.queueDeps, id);
  };

  describe('venue reads', () => {
    it('GET /venues/:id answers the venue with its settings', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({
        _id: DEMO_BISTRO_ID,
        slug: 'bistro-demo',
        name: { pt: 'Bistrô Demo', en: 'Demo Bistro' },
        address: { city: 'São Paulo', neighborhood: 'Pinheiros' },
        hasMenu: true,
        hiredServices: { loginJourney: false },
        settings: { emailRequired: false, sectionMode: 'none', operationMode: 'basic', hidePosition: false },
      });
      expect(body.reservationUrl).toContain(DEMO_BISTRO_ID);
    });

    it('GET /waitlists/:id/party-sizes answers max and sections', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_CLUB_ID}/party-sizes` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([{ partySizesWidget: { max: 6 }, sections: ['Salão', 'Varanda', 'Bar'] }]);
    });

    it('GET /themes/waitlist-api/:id answers the theme', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/themes/waitlist-api/${DEMO_CLUB_ID}` });
      expect(res.statusCode).toBe(200);
      const theme = res.json();
      expect(theme.typeImageSpotlight).toBe('inspirational');
      expect(theme.color).toHaveProperty('main');
      expect(theme.logo).toHaveProperty('horizontalWhite');
      expect(theme.inspirationalImage.large).toMatch(/\.svg$/);
      expect(theme.banners).toEqual({ list: [] });
    });

    it('GET /waitlists/:id/waitlist-statuses answers locked and active', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses` });
      // The demo venue has seated no one: the parties ahead, no estimate yet.
      expect(res.json()).toEqual({ waitlist: { locked: false, active: true }, currentWait: { partiesAhead: expect.any(Number) } });
    });

    it.each([
      ['/api/venues/', 'INVALID_VENUEID_FORMAT', 400, 'not-a-venue'],
      ['/api/venues/', 'VENUE_INFO_NOT_FOUND', 404, UNKNOWN_VENUE],
      ['/api/themes/waitlist-api/', 'INVALID_VENUEID_FORMAT', 400, 'ABCDEF0123456789ABCDEF01'],
      ['/api/waitlists/', 'VENUE_INFO_NOT_FOUND', 404, `${UNKNOWN_VENUE}/party-sizes`],
      ['/api/waitlists/', 'VENUE_INFO_NOT_FOUND', 404, `${UNKNOWN_VENUE}/waitlist-statuses`],
    ])('%s%s answers %s', async (prefix, code, status, rest) => {
      const res = await t.app.inject({ method: 'GET', url: `${prefix}${rest}` });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code, statusCode: status });
      expect(res.json().message).toEqual(expect.any(String));
    });

    it('an unknown API path answers the JSON error model', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('join', () => {
    it('creates an entry and answers its id and position', async () => {
      const res = await join(createBody());
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body._id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(body.created).toBe(true);
      expect(body.globalPos).toBeGreaterThanOrEqual(4); // three demo parties wait ahead
    });

    it('a repeat join with the same phone makes no second entry and answers no id (docs/product.md §3)', async () => {
      const phone = nextPhone();
      const first = await join(createBody({ customer: { phone } }));
      expect(first.json().joinProof).toMatch(/^[\w-]{43}$/);
      const before = await countEntries();
      const again = await join(createBody({ customer: { phone: phone.replace(/\s/g, '') } }));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'ALREADY_ON_WAITLIST' });
      expect(again.body).not.toContain(first.json()._id);
      expect(await countEntries()).toBe(before);
    });

    it('the same phone stays one entry after 10 minutes while the entry is open', async () => {
      const phone = nextPhone();
      const first = await join(createBody({ customer: { phone } }));
      t.clock.now += 10 * 60_000 + 1;
      const later = await join(createBody({ customer: { phone } }));
      expect(later.statusCode).toBe(409);
      const mine = await join(createBody({ customer: { phone }, joinProof: first.json().joinProof }));
      expect(mine.statusCode).toBe(200);
      expect(mine.json()._id).toBe(first.json()._id);
    });

    const invalid: Array<[string, Record<string, unknown>, string, string]> = [
      ['a single name', { customer: { name: 'Ana' } }, 'customer.name', 'Insert Surname'],
      ['a one-letter surname', { customer: { name: 'Ana S' } }, 'customer.name', 'Insert Surname'],
      ['a short phone', { customer: { phone: '1234' } }, 'customer.phone', 'Invalid phone number'],
      ['letters in the phone', { customer: { phone: '11 9abc-12345' } }, 'customer.phone', 'Invalid phone number'],
      ['an impossible phone', { customer: { phone: '+55 00 00000-0000' } }, 'customer.phone', 'Invalid phone number'],
      ['a bad email', { customer: { email: 'ana@' } }, 'customer.email', 'Invalid email'],
      ['party size 0', { partySize: 0 }, 'partySize', ''],
      ['party size above the maximum', { partySize: 9 }, 'partySize', ''],
      ['a fractional party size', { partySize: 2.5 }, 'partySize', ''],
      ['a 256-character note', { note: 'x'.repeat(256) }, 'note', ''],
      ['another origin label', { origin: { label: 'Host' } }, 'origin.label', ''],
      ['sendSms false', { sendSms: false }, 'sendSms', ''],
      ['a missing customer', { customer: undefined }, 'customer', ''],
    ];
    it.each(invalid)('refuses %s with 422 and the field, changing nothing', async (_label, patch, field, message) => {
      const before = await countEntries();
      const body = createBody(patch);
      if ('customer' in patch && patch.customer === undefined) delete (body as Record<string, unknown>).customer;
      const res = await join(body);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field });
      if (message) expect(res.json().message).toBe(message);
      expect(await countEntries()).toBe(before);
    });

    it('refuses a body that is not JSON with 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/waitlists/${DEMO_BISTRO_ID}/create`,
        headers: { 'content-type': 'application/json' },
        payload: '{"customer":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('MALFORMED_REQUEST');
    });

    it('refuses a body whose venue is another venue', async () => {
      const res = await join(createBody({}, DEMO_CLUB_ID));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('ERROR_-_INVALID_VENUE');
    });

    it('refuses a malformed or unknown venue', async () => {
      expect((await join(createBody({}, 'xyz'), 'xyz')).json().code).toBe('INVALID_VENUEID_FORMAT');
      const unknown = await join(createBody({}, UNKNOWN_VENUE), UNKNOWN_VENUE);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('VENUE_INFO_NOT_FOUND');
    });

    it('requires the email, and a listed section in the note, where the venue says so', async () => {
      const noEmail = await join(createBody({ note: 'Localização: Varanda' }, DEMO_CLUB_ID), DEMO_CLUB_ID);
      expect(noEmail.statusCode).toBe(422);
      expect(noEmail.json()).toMatchObject({ field: 'customer.email', message: 'Invalid email' });
      const noSection = await join(createBody({ customer: { email: 'ana@example.com' }, note: 'janela' }, DEMO_CLUB_ID), DEMO_CLUB_ID);
      expect(noSection.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'section' });
      const unknownSection = await join(
        createBody({ customer: { email: 'ana@example.com' }, note: 'Localização: Cozinha' }, DEMO_CLUB_ID),
        DEMO_CLUB_ID,
      );
      expect(unknownSection.statusCode).toBe(422);
      const ok = await join(
        createBody({ customer: { email: 'ana@example.com' }, note: 'Localização: Varanda\nperto da janela' }, DEMO_CLUB_ID),
        DEMO_CLUB_ID,
      );
      expect(ok.statusCode).toBe(201);
    });

    it('refuses an inactive (WAITLIST_STATUS_NOT_ACTIVE) or locked (WAITLIST_LOCKED) waitlist with 409', async () => {
      const before = await countEntries();
      await setVenue(DEMO_BISTRO_ID, { waitlist_active: 0 });
      const inactive = await join(createBody());
      await setVenue(DEMO_BISTRO_ID, { waitlist_active: 1, waitlist_locked: 1 });
      const locked = await join(createBody());
      const statuses = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses` });
      await setVenue(DEMO_BISTRO_ID, { waitlist_locked: 0 });
      expect(inactive.statusCode).toBe(409);
      expect(inactive.json()).toMatchObject({ code: 'WAITLIST_STATUS_NOT_ACTIVE', message: 'No waitlist available at the moment.' });
      expect(locked.statusCode).toBe(409);
      expect(locked.json()).toMatchObject({ code: 'WAITLIST_LOCKED', message: 'Remote waitlist closed.' });
      expect(statuses.json()).toEqual({ waitlist: { locked: true, active: true } });
      expect(await countEntries()).toBe(before);
    });
  });

  describe('position, status and cancel', () => {
    it('answers every field of the position', async () => {
      const created = (await join(createBody({ partySize: 3, customer: { name: 'Bruno de Lima' } }))).json();
      const res = await position(created._id);
      expect(res.statusCode).toBe(200);
      const { waitlist, waitlistSettings } = res.json();
      expect(waitlistSettings).toEqual({
        hiddenCustomerPosition: false,
        operationMode: 'basic',
        gettingCloseAt: 3,
        gettingCloseMinutes: 15,
      });
      expect(waitlist).toMatchObject({
        status: 'active',
        globalPos: created.globalPos,
        pos: created.globalPos,
        priority: false,
        _id: created._id,
        customer: { _id: created._id, name: 'Bruno de Lima' },
        estimatedTime: null,
        origin: { label: 'Widget' },
        partySize: 3,
        venue: DEMO_BISTRO_ID,
        hideCustomerPosition: false,
        operationMode: 'basic',
        displayHelpers: { partyLabel: '3 pessoas', priorityText: '' },
        isShared: false,
        cancelReason: null,
        notifiedAt: null,
        seatedAt: null,
      });
      expect(new Date(waitlist.arrivedAt).getTime()).toBe(t.clock.now);
      expect(waitlist.customerTab).toMatch(/^\d+$/);
      expect(waitlist.shareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect((await position(created._id, '?lng=en')).json().waitlist.displayHelpers.partyLabel).toBe('3 people');
    });

    it('a shared id reads the position without the share id or full name, and cannot cancel', async () => {
      const created = (await join(createBody({ customer: { name: 'Carla Dias' } }))).json();
      const shareId = (await position(created._id)).json().waitlist.shareId;
      const shared = (await position(shareId)).json().waitlist;
      expect(shared).toMatchObject({ isShared: true, shareId: null, customer: { name: 'Carla' }, globalPos: created.globalPos });
      const cancel = await t.app.inject({
        method: 'PUT',
        url: `/api/waitlists/${shareId}/${DEMO_BISTRO_ID}/cancel`,
        payload: { logs: { customer: shareId, actionType: 'Remove' }, customer: shareId, cancelReason: 'Customer' },
      });
      expect(cancel.statusCode).toBe(403);
      expect(cancel.json().code).toBe('SHARED_LINK_READ_ONLY');
      expect((await position(created._id)).json().waitlist.status).toBe('active');
    });

    it('answers INVALID_WAITLISTID_FORMAT and FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION', async () => {
      expect((await position('short')).json()).toMatchObject({ statusCode: 400, code: 'INVALID_WAITLISTID_FORMAT' });
      const missing = await position('A'.repeat(22));
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION');
    });

    it('status answers the call and seat times; errors for bad ids and another venue', async () => {
      const id = (await join(createBody())).json()._id;
      const status = (venue = DEMO_BISTRO_ID, entry = id) =>
        t.app.inject({ method: 'GET', url: `/api/waitlists/${entry}/${venue}/status` });
      expect((await status()).json()).toEqual({ status: 'active', cancelReason: null, notifiedAt: null, seatedAt: null });
      const row = await findEntryById(t.db.kysely, id);
      const called = await callEntry(t.app.queueDeps, row!);
      expect((await status()).json()).toMatchObject({ status: 'called', notifiedAt: new Date(t.clock.now).toISOString() });
      await seatEntry(t.app.queueDeps, called);
      expect((await status()).json()).toMatchObject({ status: 'seated', seatedAt: new Date(t.clock.now).toISOString() });
      expect((await status(DEMO_CLUB_ID)).json().code).toBe('ERROR_-_INVALID_VENUE');
      expect((await status('bad')).json().code).toBe('INVALID_VENUEID_FORMAT');
      expect((await status(DEMO_BISTRO_ID, 'bad')).json().code).toBe('INVALID_WAITLISTID_FORMAT');
      expect((await status(DEMO_BISTRO_ID, 'B'.repeat(22))).json().code).toBe('FAILED_TO_GET_WAITLIST_STATUS');
    });

    it('cancel records the reason Customer, moves the parties behind up, and cannot repeat', async () => {
      const a = (await join(createBody())).json();
      const b = (await join(createBody())).json();
      expect(b.globalPos).toBe(a.globalPos + 1);
      const cancelBody = { logs: { customer: a._id, actionType: 'Remove' }, customer: a._id, cancelReason: 'Customer' };
      const cancel = () => t.app.inject({ method: 'PUT', url: `/api/waitlists/${a._id}/${DEMO_BISTRO_ID}/cancel`, payload: cancelBody });
      const res = await cancel();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'cancelled', cancelReason: 'Customer' });
      expect((await position(b._id)).json().waitlist.globalPos).toBe(a.globalPos);
      const again = await cancel();
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('FAILED_TO_LEAVE_WAITLIST');
      const badBody = await t.app.inject({
        method: 'PUT',
        url: `/api/waitlists/${b._id}/${DEMO_BISTRO_ID}/cancel`,
        payload: { ...cancelBody, cancelReason: 'Host' },
      });
      expect(badBody.statusCode).toBe(422);
      expect((await position(b._id)).json().waitlist.status).toBe('active');
    });

    it('priority parties go first; hidden position and advanced mode follow the venue settings', async () => {
      const normal = (await join(createBody({ partySize: 2 }))).json();
      const big = (await join(createBody({ partySize: 6 }))).json();
      await t.db.kysely.updateTable('entries').set({ priority: 1 }).where('id', '=', big._id).execute();
      const bigPos = (await position(big._id)).json().waitlist;
      expect(bigPos.priority).toBe(true);
      expect(bigPos.displayHelpers.priorityText).toBe('Prioridade');
      expect(bigPos.globalPos).toBe(1);
      expect((await position(normal._id)).json().waitlist.globalPos).toBe(normal.globalPos + 1);

      const venue = await t.db.kysely.selectFrom('venues').select('settings').where('id', '=', DEMO_BISTRO_ID).executeTakeFirstOrThrow();
      const settings = JSON.parse(venue.settings);
      await setVenue(DEMO_BISTRO_ID, { settings: JSON.stringify({ ...settings, operationMode: 'advanced' }) });
      const advanced = (await position(normal._id)).json();
      await setVenue(DEMO_BISTRO_ID, { settings: JSON.stringify({ ...settings, hidePosition: true, operationMode: 'advanced' }) });
      const hidden = (await position(normal._id)).json();
      const hiddenJoin = await join(createBody());
      await setVenue(DEMO_BISTRO_ID, { settings: venue.settings });
      expect(advanced.waitlist.pos).toBeLessThan(advanced.waitlist.globalPos); // parties of 3 and 4 wait in other bands
      expect(hidden.waitlistSettings).toEqual({
        hiddenCustomerPosition: true,
        operationMode: 'advanced',
        gettingCloseAt: 3,
        gettingCloseMinutes: 15,
      });
      expect(hidden.waitlist.hideCustomerPosition).toBe(true);
      // docs/product.md §4: no position figures at all, not only a flag; the join answer neither.
      for (const key of ['globalPos', 'pos', 'estimatedTime']) expect(hidden.waitlist).not.toHaveProperty(key);
      expect(hiddenJoin.statusCode).toBe(201);
      expect(hiddenJoin.json()).not.toHaveProperty('globalPos');
    });

    it('the estimate follows the seating pace, as a range, and the join keeps its quote', async () => {
      // A venue of its own: no seating yet, so no pace and no history (docs/product.md §4: show nothing).
      const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await join(createBody({}, venueId), venueId)).json()._id);
      const first = (await position(ids[4]!)).json().waitlist;
      expect([first.estimatedTime, first.estimatedRange]).toEqual([null, null]);
      expect((await findEntryById(t.db.kysely, ids[4]!))?.quoted_minutes).toBeNull();
      // Staff seat one party every 4 minutes: the service interval is 4 minutes.
      for (const id of ids.slice(0, 3)) {
        t.clock.now += 4 * 60_000;
        await seatEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, id))!);
      }
      const pos = (await position(ids[4]!)).json().waitlist;
      expect(pos.globalPos).toBe(2);
      expect(pos.estimatedTime).toBe(8);
      // No quote has come true or false here yet: the default spread around 8 minutes (estimate/calibration.ts).
      expect(pos.estimatedRange).toEqual({ low: 3, high: 16 });
      // The next party is quoted the same way at join, and the quote stays on its row.
      const next = (await join(createBody({}, venueId), venueId)).json();
      const row = await findEntryById(t.db.kysely, next._id);
      expect([row?.quoted_minutes, row?.quoted_low, row?.quoted_high]).toEqual([12, 6, 22]);
      expect(JSON.parse(row!.quote_basis!).venue.pace).toBe(12);
    });

    it('tells the join page the current wait when the venue shows it (docs/product.md §4)', async () => {
      const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
      const statuses = async () => (await t.app.inject({ method: 'GET', url: `/api/waitlists/${venueId}/waitlist-statuses` })).json();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await join(createBody({}, venueId), venueId)).json()._id);
      // No pace and no history yet: the parties ahead alone (docs/product.md §4.3a).
      expect(await statuses()).toEqual({ waitlist: { locked: false, active: true }, currentWait: { partiesAhead: 4 } });
      for (const id of ids.slice(0, 2)) {
        t.clock.now += 5 * 60_000;
        await seatEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, id))!);
      }
      // Two parties wait: a newcomer would be third, at 5 minutes a seating.
      expect(await statuses()).toEqual({
        waitlist: { locked: false, active: true },
        currentWait: { partiesAhead: 2, estimatedTime: 15, estimatedRange: { low: 8, high: 26 } },
      });
      const settings = JSON.parse(
        (await t.db.kysely.selectFrom('venues').select('settings').where('id', '=', venueId).executeTakeFirstOrThrow()).settings,
      );
      for (const [patch, row] of [
        [{ showWaitBeforeJoin: false }, {}],
        [{ hidePosition: true }, {}],
        [{}, { waitlist_locked: 1 }],
      ] as const) {
        await setVenue(venueId, { settings: JSON.stringify({ ...settings, ...patch }), ...row });
        expect(await statuses()).not.toHaveProperty('currentWait');
      }
    });
  });

  describe('documentation and headers', () => {
    it('serves an OpenAPI description of every route at /api/docs', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      for (const path of [
        '/api/venues/{venueId}',
        '/api/waitlists/{venueId}/party-sizes',
        '/api/themes/{product}/{venueId}',
        '/api/waitlists/{venueId}/waitlist-statuses',
        '/api/waitlists/{venueId}/create',
        '/api/waitlists/{waitlistId}/position',
        '/api/waitlists/{waitlistId}/{venueId}/status',
        '/api/waitlists/{waitlistId}/{venueId}/cancel',
      ]) {
        expect(doc.paths, path).toHaveProperty([path]);
      }
      const create = doc.paths['/api/waitlists/{venueId}/create'].post;
      expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty('customer');
      expect(create.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
      // Decisions §3: the repeat-join answers and the join proof are documented.
      expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty('joinProof');
      expect(create.responses['201'].content['application/json'].schema.properties).toHaveProperty('joinProof');
      expect(create.description).toMatch(/409 ALREADY_ON_WAITLIST.*no id/);
      expect(create.description).toMatch(/WAITLIST_FULL/);
      expect(create.description).toMatch(/PHONE_COUNTRY_NOT_ALLOWED/);
    });

    it('sends a Content-Security-Policy without inline script on API and page answers', async () => {
      for (const url of ['/api/venues/' + DEMO_BISTRO_ID, '/remote-waitlist/' + DEMO_BISTRO_ID]) {
        const res = await t.app.inject({ method: 'GET', url });
        const csp = String(res.headers['content-security-policy']);
        expect(csp).toContain("script-src 'self'");
        expect(csp).not.toContain("unsafe-inline' ;");
        expect(csp.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe-inline');
        expect(csp).toContain("object-src 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBeDefined();
      }
    });
  });
});
