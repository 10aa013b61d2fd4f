import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, nextPhone, postJoin, countRows } from '../../../test/fixtures.js';
import { appOnStore, useTestApp } from '../../../test/harness.js';
import { CLUB_HOST, hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { runRetention } from '../../jobs/retention.js';

const MAX_OPEN = 5;
const FLOOD = 199;

/**
 * docs/decisions/026: one client address cannot fill a venue. The open parties (waiting or called)
 * joined from one address are bounded per venue, counted in the store; the venue's own kiosk (a
 * browser with a staff session of that venue) is not counted.
 */
describe.each(stores)('open parties per client address on $name', (store) => {
  const limits = {
    RATE_LIMIT_JOINS_PER_10_MIN: '100000',
    RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '100000',
    JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: String(MAX_OPEN),
  };
  const t = useTestApp(store, limits);

  const join = (venueId: string, remoteAddress: string, headers: Record<string, string> = {}, app = t.app) =>
    postJoin({ app }, { customer: { phone: nextPhone() } }, { venueId, headers, remoteAddress });
  const count = (table: 'entries' | 'messages') => countRows(t.db, table);
  const host = hostApi(t);

  it(`${FLOOD} joins from one address make ${MAX_OPEN} parties and send ${MAX_OPEN} SMS; the rest answer 409 and change nothing`, async () => {
    const [entriesBefore, messagesBefore] = [await count('entries'), await count('messages')];
    const answers = await Promise.all(Array.from({ length: FLOOD }, () => join(DEMO_BISTRO_ID, '198.51.100.7')));
    const created = answers.filter((r) => r.statusCode === 201);
    const refused = answers.filter((r) => r.statusCode === 409);
    expect(created).toHaveLength(MAX_OPEN);
    expect(refused).toHaveLength(FLOOD - MAX_OPEN);
    for (const res of refused) {
      expect(res.json()).toEqual({
        statusCode: 409,
        code: 'TOO_MANY_OPEN_FROM_ADDRESS',
        message: `This venue takes at most ${MAX_OPEN} open parties from one connection; please ask the host to add you.`,
      });
    }
    expect(await count('entries')).toBe(entriesBefore + MAX_OPEN);
    expect(await count('messages')).toBe(messagesBefore + MAX_OPEN);

    // Another address, and the same address at another venue, still join.
    expect((await join(DEMO_BISTRO_ID, '198.51.100.8')).statusCode).toBe(201);
    expect((await join(await addVenueLike(t.db, DEMO_BISTRO_ID), '198.51.100.7')).statusCode).toBe(201);
  });

  it('the kiosk (a staff session of the venue) joins past the bound; staff of another venue do not count as its kiosk', async () => {
    const kiosk = '198.51.100.20';
    for (let i = 0; i < MAX_OPEN; i++) expect((await join(DEMO_BISTRO_ID, kiosk)).statusCode).toBe(201);
    expect((await join(DEMO_BISTRO_ID, kiosk)).statusCode).toBe(409);
    const clubCookie = await t.staffCookie(CLUB_HOST);
    expect((await join(DEMO_BISTRO_ID, kiosk, { cookie: clubCookie })).json().code).toBe('TOO_MANY_OPEN_FROM_ADDRESS');
    const cookie = await host.cookie();
    for (let i = 0; i < 3; i++) {
      const res = await join(DEMO_BISTRO_ID, kiosk, { cookie });
      expect(res.statusCode).toBe(201);
      const row = await t.db.kysely.selectFrom('entries').select('client_key').where('id', '=', res.json()._id).executeTakeFirstOrThrow();
      expect(row.client_key).toBeNull();
    }
  });

  it('a seated party frees its place; the count is in the store, so a second instance agrees', async () => {
    const address = '198.51.100.30';
    const ids: string[] = [];
    for (let i = 0; i < MAX_OPEN; i++) ids.push((await join(DEMO_BISTRO_ID, address)).json()._id);
    const other = await appOnStore(t.db, { DEMO: '1', ...limits }, { now: () => t.clock.now });
    try {
      expect((await join(DEMO_BISTRO_ID, address, {}, other)).statusCode).toBe(409);
      expect((await host.post(`/entries/${ids[0]}/seat`)).statusCode).toBe(200);
      expect((await join(DEMO_BISTRO_ID, address, {}, other)).statusCode).toBe(201);
      expect((await join(DEMO_BISTRO_ID, address)).statusCode).toBe(409);
    } finally {
      await other.close();
    }
  });

  it('an IPv6 client is its /64: another address in the same /64 counts with it', async () => {
    for (let i = 0; i < MAX_OPEN; i++) expect((await join(DEMO_BISTRO_ID, `2001:db8:7:1::${i + 1}`)).statusCode).toBe(201);
    expect((await join(DEMO_BISTRO_ID, '2001:db8:7:1:ffff::99')).statusCode).toBe(409);
    expect((await join(DEMO_BISTRO_ID, '2001:db8:7:2::1')).statusCode).toBe(201);
  });

  it('the entry keeps a keyed hash, never the address, and loses it with its personal data', async () => {
    const address = '198.51.100.40';
    const id = (await join(DEMO_BISTRO_ID, address)).json()._id as string;
    const row = await t.db.kysely.selectFrom('entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.client_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(address);
    // Not an unkeyed hash anyone could recompute over every IPv4 address.
    for (const guess of [address, `${DEMO_BISTRO_ID}|${address}`, `vez-client:${address}`]) {
      expect(row.client_key).not.toBe(createHash('sha256').update(guess).digest('hex'));
    }
    expect((await host.post(`/entries/${id}/seat`)).statusCode).toBe(200);
    t.clock.now += 25 * 3_600_000;
    await runRetention(t.db, 24, t.clock.now);
    const erased = await t.db.kysely.selectFrom('entries').select(['client_key', 'name']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(erased).toEqual({ client_key: null, name: null });
  });
});
