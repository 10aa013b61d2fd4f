import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { toE164 } from '../src/lib/phone.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, nextPhone, postJoin } from './fixtures.js';
import { useTestApp } from './harness.js';
import { stores } from './stores.js';
import { addVenueLike } from './venues.js';

/** docs/security.md: a client's own X-Forwarded-For never moves a rate limit. */
describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, ::1, fd00::/8,loopback', ['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']],
  ])('reads %s as %j', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['true', 'yes', '11', '10.0.0.0/33', '300.1.1.1', 'proxy.example', '1.2.3.4/8/1'])('refuses %s, naming the variable', (raw) => {
    expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: raw })).toThrow(/^\s+TRUST_PROXY: /m);
  });

  it('explains why true is refused', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/X-Forwarded-For.*number of proxies/);
  });
});

const LIMIT = 3;
const spoofs = ['1.1.1.1', '8.8.8.8', '9.9.9.9', '4.4.4.4', '6.6.6.6'];

/** Each case: the TRUST_PROXY value, the socket's peer, and how a request from `client` arrives. */
const setups = [
  { trust: undefined, peer: '203.0.113.7', xff: (spoof: string) => spoof },
  { trust: '1', peer: '127.0.0.1', xff: (spoof: string) => `${spoof}, 203.0.113.7` },
  { trust: '10.0.0.2', peer: '10.0.0.2', xff: (spoof: string) => `${spoof}, 203.0.113.7` },
] as const;

describe.each(stores)('rate limits key the real client address on $name', (store) => {
  describe.each(setups)('TRUST_PROXY=$trust', ({ trust, peer, xff }) => {
    const t = useTestApp(store, {
      ...(trust ? { TRUST_PROXY: trust } : {}),
      RATE_LIMIT_JOINS_PER_10_MIN: String(LIMIT),
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '1000',
      OTP_SENDS_PER_ADDRESS_PER_10_MIN: String(LIMIT),
    });
    let venueId: string;
    beforeAll(async () => {
      venueId = await addVenueLike(t.db, DEMO_BISTRO_ID);
    });

    it('joins: a new X-Forwarded-For on every request still hits the limit', async () => {
      const join = (spoof: string) => postJoin(t, {}, { venueId, headers: { 'x-forwarded-for': xff(spoof) }, remoteAddress: peer });
      for (let i = 0; i < LIMIT; i++) expect((await join(spoofs[i]!)).statusCode).toBe(201);
      const limited = await join(spoofs[LIMIT]!);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
      const count = await t.db.kysely.selectFrom('entries').select('id').where('venue_id', '=', venueId).execute();
      expect(count).toHaveLength(LIMIT);
    });

    it('code sends: a new X-Forwarded-For on every request still hits the per-address limit', async () => {
      const send = (spoof: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/otp/send',
          remoteAddress: peer,
          headers: { 'x-forwarded-for': xff(spoof) },
          payload: { productName: 'waitlist', channel: 'sms', venueId: DEMO_CLUB_ID, type: 'validate', target: toE164(nextPhone()) },
        });
      for (let i = 0; i < LIMIT; i++) expect((await send(spoofs[i]!)).statusCode).toBe(200);
      const limited = await send(spoofs[LIMIT]!);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
    });
  });
});
