import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, postJoin } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';

const LIMIT = 3;

/** Decisions §3: joins are limited per client address; a limit answers 429 with Retry-After. */
describe.each(stores)('join rate limit on $name', (store) => {
  const t = useTestApp(store, { RATE_LIMIT_JOINS_PER_10_MIN: String(LIMIT), RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '1000' });
  let venueId: string;
  beforeAll(async () => {
    venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
  });

  const join = (remoteAddress: string) => postJoin(t, {}, { venueId, remoteAddress });
  const countEntries = async () => (await t.db.kysely.selectFrom('entries').select('id').where('venue_id', '=', venueId).execute()).length;

  it(`answers 429 RATE_LIMITED with Retry-After after ${LIMIT} joins from one address, and adds nothing`, async () => {
    for (let i = 0; i < LIMIT; i++) expect((await join('203.0.113.7')).statusCode).toBe(201);
    const limited = await join('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/try again|retry/i);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await countEntries()).toBe(LIMIT);
  });

  it('limits each client address on its own', async () => {
    expect((await join('198.51.100.23')).statusCode).toBe(201);
    expect(await countEntries()).toBe(LIMIT + 1);
  });

  it('leaves the reads of a limited address alone', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/waitlists/${venueId}/waitlist-statuses`, remoteAddress: '203.0.113.7' });
    expect(res.statusCode).toBe(200);
  });
});

const PER_VENUE = 2;

/** Decisions §3: joins are also limited per venue and client address, so one address cannot fill one venue. */
describe.each(stores)('join rate limit per venue and address on $name', (store) => {
  const t = useTestApp(store, {
    RATE_LIMIT_JOINS_PER_10_MIN: '1000',
    RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: String(PER_VENUE),
  });
  let venueA: string;
  let venueB: string;
  beforeAll(async () => {
    venueA = await addVenueLike(t.db, DEMO_BISTRO_ID);
    venueB = await addVenueLike(t.db, DEMO_BISTRO_ID);
  });

  const join = (venueId: string, remoteAddress: string) => postJoin(t, {}, { venueId, remoteAddress });
  const countEntries = async (venueId: string) =>
    (await t.db.kysely.selectFrom('entries').select('id').where('venue_id', '=', venueId).execute()).length;

  it(`answers 429 with Retry-After after ${PER_VENUE} joins at one venue from one address, and adds nothing`, async () => {
    for (let i = 0; i < PER_VENUE; i++) expect((await join(venueA, '203.0.113.50')).statusCode).toBe(201);
    const limited = await join(venueA, '203.0.113.50');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/try again.*retry in \d+ s/i);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await countEntries(venueA)).toBe(PER_VENUE);
  });

  it('leaves the same address free at another venue, and another address free at this one', async () => {
    expect((await join(venueB, '203.0.113.50')).statusCode).toBe(201);
    expect((await join(venueA, '198.51.100.60')).statusCode).toBe(201);
    expect(await countEntries(venueA)).toBe(PER_VENUE + 1);
  });
});
