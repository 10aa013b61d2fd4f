import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin, countRows } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { toE164 } from '../../lib/phone.js';

const FLOOD = 300;
/** Valid numbers of the United States, Canada, Portugal and Argentina: none is Brazilian. */
const foreignPhone = (i: number) =>
  [`+1 201 555 ${String(100 + i).padStart(4, '0')}`, '+1 416 555 0123', '+351 912 345 678', '+54 9 11 2345 6789'][i % 4] as string;

/**
 * Decisions §3, queue flooding and SMS pumping: SMS only to the venue's countries (default
 * Brazil), a venue's cap of waiting parties, both set in the host console.
 */
describe.each(stores)('join bounds on $name', (store) => {
  const t = useTestApp(store, { RATE_LIMIT_JOINS_PER_10_MIN: '100000', RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000' });

  const join = (venueId: string, phone: string, extra: Record<string, unknown> = {}) =>
    postJoin(t, { customer: { phone }, partySize: 8, ...extra }, { venueId });
  const host = hostApi(t);
  const count = (table: 'entries' | 'messages', venueId?: string) => countRows(t.db, table, venueId ? { venue_id: venueId } : {});
  const smsTo = async (phone: string) =>
    (
      await t.db.kysely
        .selectFrom('messages')
        .select('id')
        .where('recipient', '=', toE164(phone) ?? phone)
        .execute()
    ).length;

  it(`refuses ${FLOOD} joins of foreign numbers with 422 naming the allowed countries, and queues no SMS`, async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    const [entriesBefore, messagesBefore] = [await count('entries'), await count('messages')];
    const answers = await Promise.all(Array.from({ length: FLOOD }, (_, i) => join(venueId, foreignPhone(i))));
    for (const res of answers) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'PHONE_COUNTRY_NOT_ALLOWED', field: 'customer.phone' });
      expect(res.json().message).toMatch(/only to phone numbers from Brazil \(BR\)/);
    }
    expect(await count('entries')).toBe(entriesBefore);
    expect(await count('messages')).toBe(messagesBefore);
    expect((await join(venueId, nextPhone())).statusCode).toBe(201);
  });

  it('host settings change the SMS countries and the cap; unknown codes and bad caps answer 422 and change nothing', async () => {
    const before = (await host.get('/settings')).json();
    expect(before.settings).toMatchObject({ maxWaitingParties: 200, smsCountries: ['BR'] });
    for (const [settings, field] of [
      [{ smsCountries: ['XX'] }, 'settings.smsCountries'],
      [{ smsCountries: ['br'] }, 'settings.smsCountries'],
      [{ smsCountries: [] }, 'settings.smsCountries'],
      [{ smsCountries: 'BR' }, 'settings.smsCountries'],
      [{ maxWaitingParties: 0 }, 'settings.maxWaitingParties'],
      [{ maxWaitingParties: 2.5 }, 'settings.maxWaitingParties'],
      [{ maxWaitingParties: 1_000_000 }, 'settings.maxWaitingParties'],
      [{ maxWaitingParties: '10' }, 'settings.maxWaitingParties'],
    ] as const) {
      const res = await host.patch('/settings', { settings });
      expect(res.statusCode, JSON.stringify(settings)).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: expect.stringContaining(field) });
    }
    expect((await host.get('/settings')).json()).toEqual(before);

    const res = await host.patch('/settings', { settings: { smsCountries: ['BR', 'US', 'BR'], maxWaitingParties: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({ smsCountries: ['BR', 'US'], maxWaitingParties: null });
    const venue = (await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` })).json();
    expect(venue.settings).toMatchObject({ smsCountries: ['BR', 'US'] });
    // Now a US phone joins, with its SMS; a Canadian one still does not.
    const us = '+1 201 555 0199';
    expect((await join(DEMO_BISTRO_ID, us)).statusCode).toBe(201);
    expect(await smsTo(us)).toBe(1);
    expect((await join(DEMO_BISTRO_ID, '+1 416 555 0123')).json().message).toMatch(/Brazil \(BR\), United States \(US\)/);
  });

  it('the cap refuses the next remote join with 409 WAITLIST_FULL and changes nothing; staff walk-ins pass; a seat makes room', async () => {
    const waiting = (await host.get('/entries')).json().entries.filter((e: { status: string }) => e.status === 'active').length;
    expect((await host.patch('/settings', { settings: { maxWaitingParties: waiting + 1 } })).statusCode).toBe(200);
    expect((await join(DEMO_BISTRO_ID, nextPhone())).statusCode).toBe(201);
    const [entriesBefore, messagesBefore] = [await count('entries'), await count('messages')];
    const seqBefore = (await t.db.kysely.selectFrom('venues').select('next_seq').where('id', '=', DEMO_BISTRO_ID).executeTakeFirstOrThrow())
      .next_seq;
    const full = await join(DEMO_BISTRO_ID, nextPhone());
    expect(full.statusCode).toBe(409);
    expect(full.json()).toEqual({ statusCode: 409, code: 'WAITLIST_FULL', message: expect.stringMatching(/full/) });
    expect(await count('entries')).toBe(entriesBefore);
    expect(await count('messages')).toBe(messagesBefore);
    expect(
      (await t.db.kysely.selectFrom('venues').select('next_seq').where('id', '=', DEMO_BISTRO_ID).executeTakeFirstOrThrow()).next_seq,
    ).toBe(seqBefore);

    const walkIn = await host.post('/entries', { customer: { name: 'Rui Costa', phone: nextPhone() }, partySize: 2 });
    expect(walkIn.statusCode).toBe(201);
    const head = (await host.get('/entries')).json().entries[0]._id as string;
    expect((await host.post(`/entries/${head}/seat`)).statusCode).toBe(200);
    expect((await host.post(`/entries/${(await host.get('/entries')).json().entries[0]._id}/seat`)).statusCode).toBe(200);
    expect((await join(DEMO_BISTRO_ID, nextPhone())).statusCode).toBe(201);
    expect((await host.patch('/settings', { settings: { maxWaitingParties: null } })).statusCode).toBe(200);
  });

  it('a walk-in with a phone outside the SMS countries is added without any SMS, on join or call', async () => {
    const phone = '+351 912 345 678';
    const res = await host.post('/entries', { customer: { name: 'Rui Costa', phone }, partySize: 2 });
    expect(res.statusCode).toBe(201);
    expect((await host.post(`/entries/${res.json().entry._id}/call`)).statusCode).toBe(200);
    expect(await smsTo(phone)).toBe(0);
  });
});
