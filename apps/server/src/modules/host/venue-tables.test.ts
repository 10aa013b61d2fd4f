import { defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';

/** The tables the venue has (docs/product.md §2), through the API, on both stores. */
describe.each(stores)('venue tables on $name', (store) => {
  const t = useTestApp(store);
  const host = hostApi(t);
  const patch = (settings: object) => host.patch('/settings', { settings });
  const stored = async () => (await host.get('/settings')).json().settings.tables;

  it('none by default; staff set them, read them back, and clear them', async () => {
    expect(await stored()).toEqual([]);
    const tables = [
      { seats: 2, count: 9 },
      { seats: 4, count: 8 },
    ];
    const ok = await patch({ tables });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings.tables).toEqual(tables);
    expect(await stored()).toEqual(tables);
    // Other settings are kept, and the diner's venue answer carries the same settings.
    expect(ok.json().settings.holdMinutes).toBe(defaultVenueSettings.holdMinutes);
    const venue = (await t.app.inject({ method: 'GET', url: `/api/venues/${DEMO_BISTRO_ID}` })).json();
    expect(venue.settings.tables).toEqual(tables);
    // A patch of another setting leaves them as they are.
    expect((await patch({ holdMinutes: 12 })).json().settings.tables).toEqual(tables);
    await patch({ holdMinutes: defaultVenueSettings.holdMinutes });
    expect((await patch({ tables: [] })).json().settings.tables).toEqual([]);
  });

  it('refuses bad tables (422 naming the field) and changes nothing', async () => {
    const kept = [{ seats: 6, count: 2 }];
    expect((await patch({ tables: kept })).statusCode).toBe(200);
    for (const [tables, field, message] of [
      [[{ seats: 0, count: 3 }], 'settings.tables.0.seats', undefined],
      [[{ seats: 41, count: 3 }], 'settings.tables.0.seats', undefined],
      [[{ seats: 2, count: 1.5 }], 'settings.tables.0.count', undefined],
      [[{ seats: 2, count: 201 }], 'settings.tables.0.count', undefined],
      [[{ seats: 2, count: '3' }], 'settings.tables.0.count', undefined],
      [[{ seats: 2, count: 3, size: 4 }], 'settings.tables.0.size', 'Unknown field: size'],
      [
        [
          { seats: 2, count: 3 },
          { seats: 2, count: 4 },
        ],
        'settings.tables',
        'Each table size once.',
      ],
      [Array.from({ length: 13 }, (_, i) => ({ seats: i + 1, count: 1 })), 'settings.tables', 'At most 12 table sizes.'],
      [null, 'settings.tables', undefined],
    ] as const) {
      const res = await patch({ tables });
      expect(res.statusCode, JSON.stringify(tables)).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field });
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await stored()).toEqual(kept);
    await patch({ tables: [] });
  });

  it('twelve sizes are fine', async () => {
    const tables = Array.from({ length: 12 }, (_, i) => ({ seats: i + 1, count: 200 }));
    const res = await patch({ tables });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings.tables).toEqual(tables);
    await patch({ tables: [] });
  });

  it('settings stored before tables existed, or with tables the contract refuses, read as none', async () => {
    const { tables: _none, ...old } = defaultVenueSettings;
    for (const settings of [old, { ...old, tables: null }, { ...old, tables: [{ seats: 0, count: 'x' }] }, { ...old, tables: 'many' }]) {
      const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify(settings) });
      const res = await t.app.inject({ method: 'GET', url: `/api/venues/${venueId}` });
      expect(res.statusCode, JSON.stringify(settings)).toBe(200);
      expect(res.json().settings.tables).toEqual([]);
      expect(res.json().settings.holdMinutes).toBe(old.holdMinutes);
    }
  });
});
