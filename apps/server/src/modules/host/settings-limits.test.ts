import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';

/**
 * docs/decisions/032-the-door-on-a-busy-night.md: a whole-number setting outside its limits is a
 * 422 naming the field and both limits, never clamped; an empty value is not zero; nothing is stored.
 */
describe.each(stores)('settings limits on $name', (store) => {
  const t = useTestApp(store);
  let cookie: string;
  beforeAll(async () => {
    cookie = await t.staffCookie();
  });

  const url = `/api/host/venues/${DEMO_BISTRO_ID}/settings`;
  const patch = (payload: object) => t.app.inject({ method: 'PATCH', url, headers: { cookie }, payload });
  const current = async () => (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();

  it.each([
    [{ settings: { holdMinutes: 999 } }, 'settings.holdMinutes', 'from 0 to 120'],
    [{ settings: { holdMinutes: -1 } }, 'settings.holdMinutes', 'from 0 to 120'],
    [{ settings: { holdMinutes: 7.5 } }, 'settings.holdMinutes', 'from 0 to 120'],
    [{ settings: { holdMinutes: '' } }, 'settings.holdMinutes', 'from 0 to 120'],
    [{ settings: { holdMinutes: null } }, 'settings.holdMinutes', 'from 0 to 120'],
    [{ settings: { gettingCloseAt: 51 } }, 'settings.gettingCloseAt', 'from 0 to 50'],
    [{ settings: { maxWaitingParties: 0 } }, 'settings.maxWaitingParties', 'from 1 to 10000'],
    [{ maxPartySize: 0 }, 'maxPartySize', 'from 1 to 50'],
    [{ maxPartySize: 51 }, 'maxPartySize', 'from 1 to 50'],
  ])('refuses %j with 422 naming %s and its limits, and stores nothing', async (payload, field, limits) => {
    const before = await current();
    const res = await patch(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(res.json().message).toContain(limits);
    expect(await current()).toEqual(before);
  });

  it('keeps the limits themselves, as sent', async () => {
    const res = await patch({ maxPartySize: 50, settings: { holdMinutes: 120, gettingCloseAt: 0, maxWaitingParties: null } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ maxPartySize: 50, settings: { holdMinutes: 120, gettingCloseAt: 0, maxWaitingParties: null } });
    expect((await current()).settings.holdMinutes).toBe(120);
  });
});
