import { type VenueSettings, defaultVenueSettings } from '@vez/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { outbox } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { toE164 } from '../../lib/phone.js';
import { updateVenue } from '../venues/venues.repository.js';
import { announceVenueUpdate, findEntryById, seatEntry, sendGettingClose } from './index.js';

/**
 * Almost your turn by time, not place alone (docs/product.md §8): the `gettingCloseMinutes` setting
 * (default 15) and the rule that reads it, through the API on both stores.
 */
describe.each(stores)('gettingCloseMinutes on $name', (store) => {
  const t = useTestApp(store);
  let cookie: string;
  beforeAll(async () => {
    cookie = await t.staffCookie();
  });

  const patch = (settings: object) =>
    t.app.inject({ method: 'PATCH', url: `/api/host/venues/${DEMO_BISTRO_ID}/settings`, headers: { cookie }, payload: { settings } });
  const venueSettings = async (venueId: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/venues/${venueId}` })).json().settings as VenueSettings;

  it('reads 15 by default, also for a venue stored before the setting', async () => {
    const { gettingCloseMinutes: _, ...before } = defaultVenueSettings;
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify(before) });
    expect((await venueSettings(venueId)).gettingCloseMinutes).toBe(15);
  });

  it('staff change it and read it back', async () => {
    const res = await patch({ gettingCloseMinutes: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings.gettingCloseMinutes).toBe(30);
    const read = await t.app.inject({ method: 'GET', url: `/api/host/venues/${DEMO_BISTRO_ID}/settings`, headers: { cookie } });
    expect(read.json().settings.gettingCloseMinutes).toBe(30);
    expect((await venueSettings(DEMO_BISTRO_ID)).gettingCloseMinutes).toBe(30);
    expect((await patch({ gettingCloseMinutes: 15 })).statusCode).toBe(200);
  });

  it.each([
    ['0', 0],
    ['121', 121],
    ['a fraction', 2.5],
    ['empty (not zero)', ''],
    ['null', null],
    ['a string', '15'],
  ])('refuses %s with 422 naming the field and saying its limits, never clamped', async (_, value) => {
    const res = await patch({ gettingCloseMinutes: value });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'settings.gettingCloseMinutes' });
    expect(res.json().message).toContain('1 to 120');
    expect((await venueSettings(DEMO_BISTRO_ID)).gettingCloseMinutes).toBe(15);
  });

  it('the message and the page wait for the range to be short enough; a party that joined that close gets neither', async () => {
    const settings = { ...defaultVenueSettings, gettingCloseAt: 2, gettingCloseMinutes: 10 };
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify(settings) });
    const parties: { id: string; phone: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const phone = nextPhone();
      const res = await postJoin(t, { customer: { phone } }, { venueId });
      expect(res.statusCode).toBe(201);
      parties.push({ id: res.json()._id as string, phone: toE164(phone)! });
    }
    const position = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/waitlists/${id}/position` })).json();
    const told = async (phone: string) => (await outbox(t)).filter((m) => m.to === phone && m.body.includes('falta pouco')).length;
    // No pace yet (range unknown): the first two joined within 2 places, so neither the message nor the notice.
    expect((await position(parties[0]!.id)).waitlist.joinedClose).toBe(true);
    expect((await position(parties[1]!.id)).waitlist.joinedClose).toBe(true);
    expect((await position(parties[2]!.id)).waitlist.joinedClose).toBe(false);
    expect((await position(parties[2]!.id)).waitlistSettings).toMatchObject({ gettingCloseAt: 2, gettingCloseMinutes: 10 });
    // One seat every 4 minutes: a pace, and ranges.
    for (const party of parties.slice(0, 3)) {
      t.clock.now += 4 * 60_000;
      await seatEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, party.id))!);
    }
    const last = parties[4]!;
    const seen = (await position(last.id)).waitlist;
    expect(seen.globalPos).toBe(2);
    expect(seen.estimatedRange.high).toBeGreaterThan(10);
    // Within 2 places but its range reaches past 10 minutes: not told yet.
    expect(await told(last.phone)).toBe(0);
    // The venue allows ranges up to the party's top: told once, by the same rule.
    await updateVenue(t.db.kysely, venueId, {
      settings: JSON.stringify({ ...settings, gettingCloseMinutes: Math.ceil(seen.estimatedRange.high) }),
    });
    announceVenueUpdate(t.app.queueDeps, venueId);
    await sendGettingClose(t.app.queueDeps, venueId);
    await sendGettingClose(t.app.queueDeps, venueId);
    expect(await told(last.phone)).toBe(1);
    expect(await told(parties[0]!.phone)).toBe(0);
    expect(await told(parties[1]!.phone)).toBe(0);
  });
});
