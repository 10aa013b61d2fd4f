import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { startTestApp, useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { updateVenue } from './venues.repository.js';
import { getVenue } from './venues.service.js';

/** The venue is kept for a moment between reads; a write through the repository shows at once. */
describe.each(stores)('venue cache on $name', (store) => {
  const t = useTestApp(store);

  it('answers a repeated read from the kept copy, frozen against changes', async () => {
    const first = await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    const second = await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    expect(second).toBe(first);
    expect(Object.isFrozen(first.settings)).toBe(true);
    expect(() => {
      (first.settings as { emailRequired: boolean }).emailRequired = true;
    }).toThrow(TypeError);
  });

  it('shows a change made through the repository on the next read, in every route', async () => {
    await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 3, waitlist_locked: 1 });
    expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(3);
    const statuses = await t.app.inject({ method: 'GET', url: `/api/waitlists/${DEMO_BISTRO_ID}/waitlist-statuses` });
    expect(statuses.json()).toEqual({ waitlist: { locked: true, active: true } });
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 8, waitlist_locked: 0 });
    expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(8);
  });

  it('reads the row itself inside a transaction', async () => {
    await getVenue(t.db.kysely, DEMO_BISTRO_ID);
    // A change behind the repository's back (another instance, for example).
    await sql`update venues set max_party_size = 5 where id = ${DEMO_BISTRO_ID}`.execute(t.db.kysely);
    const inside = await t.db.kysely.transaction().execute((trx) => getVenue(trx, DEMO_BISTRO_ID));
    expect(inside.maxPartySize).toBe(5);
    await updateVenue(t.db.kysely, DEMO_BISTRO_ID, { max_party_size: 8 });
  });

  it('keeps venues of different stores apart', async () => {
    const other = await startTestApp(store);
    try {
      await updateVenue(other.db.kysely, DEMO_BISTRO_ID, { max_party_size: 2 });
      await getVenue(other.db.kysely, DEMO_BISTRO_ID);
      expect((await getVenue(t.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(8);
      expect((await getVenue(other.db.kysely, DEMO_BISTRO_ID)).maxPartySize).toBe(2);
    } finally {
      await other.close();
    }
  });
});
