import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appOnStore, useTestApp } from '../../../test/harness.js';
import { sendCode } from '../../../test/identity.js';
import { stores } from '../../../test/stores.js';

/**
 * docs/decisions/026: a code keeps a keyed hash of the address that asked for it (for the limit per
 * address), never the address nor an unkeyed hash of it, which trying all IPv4 addresses undoes. The
 * key is the store's, so every instance counts the same address alike.
 */
describe.each(stores)('the address kept with a code on $name', (store) => {
  const env = { OTP_SENDS_PER_ADDRESS_PER_10_MIN: '2' };
  const t = useTestApp(store, env);

  it('is an HMAC under the store’s key, and a second instance counts the same address with it', async () => {
    const address = '192.0.2.77';
    expect((await sendCode(t, { target: '+5521998765001' }, address)).statusCode).toBe(200);
    const row = await t.db.kysely
      .selectFrom('one_time_codes')
      .select('client_key')
      .where('target', '=', '+5521998765001')
      .executeTakeFirstOrThrow();
    expect(row.client_key).toMatch(/^[0-9a-f]{64}$/);
    for (const guess of [address, `vez-client:${address}`])
      expect(row.client_key).not.toBe(createHash('sha256').update(guess).digest('hex'));

    expect((await sendCode(t, { target: '+5521998765002' }, address)).statusCode).toBe(200);
    const other = await appOnStore(t.db, { DEMO: '1', ...env }, { now: () => t.clock.now });
    try {
      const third = await other.inject({
        method: 'POST',
        url: '/api/otp/send',
        remoteAddress: address,
        payload: {
          productName: 'waitlist',
          channel: 'sms',
          target: '+5521998765003',
          venueId: '6553f1a2b3c4d5e6f7a8b902',
          type: 'validate',
        },
      });
      expect(third.statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });
});
