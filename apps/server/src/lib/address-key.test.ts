import { describe, expect, it } from 'vitest';
import { addressScope, joinAddressKey } from './address-key.js';

/** docs/decisions/026: what counts as one client for the open parties' bound, and its key. */
describe('address scope and key', () => {
  it('an IPv4 address is itself, also when written IPv4-mapped', () => {
    expect(addressScope('203.0.113.9')).toBe('203.0.113.9');
    expect(addressScope('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressScope('::FFFF:203.0.113.9')).toBe('203.0.113.9');
    for (const address of ['0.0.0.0', '127.0.0.1', '10.20.30.40', '255.255.255.255', '192.168.1.100']) {
      expect(addressScope(address), address).toBe(address);
    }
  });

  it('an IPv6 address is its /64, however it is written', () => {
    const scope = '2001:db8:7:1::/64';
    for (const address of [
      '2001:db8:7:1::1',
      '2001:0db8:0007:0001:0000:0000:0000:0001',
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:DB8:7:1::9%eth0',
    ]) {
      expect(addressScope(address), address).toBe(scope);
    }
    expect(addressScope('2001:db8:7:2::1')).not.toBe(scope);
    expect(addressScope('::1')).toBe('0:0:0:0::/64');
    expect(addressScope('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressScope('64:ff9b::203.0.113.9')).toBe('64:ff9b:0:0::/64');
  });

  it('the key depends on the secret and the venue, and is the same for one /64', () => {
    const venue = 'a'.repeat(24);
    const key = joinAddressKey('secret', venue, '2001:db8:7:1::1');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(joinAddressKey('secret', venue, '2001:db8:7:1::2')).toBe(key);
    expect(joinAddressKey('other secret', venue, '2001:db8:7:1::1')).not.toBe(key);
    expect(joinAddressKey('secret', 'b'.repeat(24), '2001:db8:7:1::1')).not.toBe(key);
  });
});

describe('kept address keys', () => {
  it('a kept key is the HMAC of its own secret, venue and address, never another pair', async () => {
    const { createHmac } = await import('node:crypto');
    const hmac = (secret: string, venue: string, scope: string) => createHmac('sha256', secret).update(`${venue}|${scope}`).digest('hex');
    for (let round = 0; round < 2; round++)
      for (const [secret, venue, address] of [
        ['s1', 'v1', '203.0.113.9'],
        ['s2', 'v1', '203.0.113.9'],
        ['s1', 'v2', '203.0.113.9'],
        ['s1', 'v1', '203.0.113.10'],
        ['s1', 'v1', '2001:db8:7:1::1'],
      ] as const)
        expect(joinAddressKey(secret, venue, address), `${secret} ${venue} ${address}`).toBe(hmac(secret, venue, addressScope(address)));
  });
});
