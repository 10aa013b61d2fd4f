import { defaultVenueSettings } from '@vez/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, joinParty } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { stores } from '../../../test/stores.js';
import { addVenueLike } from '../../../test/venues.js';
import { findEntryById, seatEntry } from '../queue/index.js';

/**
 * A change reaches the venue's streams before its after-commit work: the hub takes the event at
 * publish and refreshes on the next turn of the event loop (venue-hub.ts); the getting-close check,
 * which on SQLite reads the whole open queue in one synchronous go, waits for that turn
 * (docs/decisions/035-fan-out-before-after-commit-work.md).
 */
describe.each(stores)('fan-out before after-commit work on $name', (store) => {
  const t = useTestApp(store);

  it("a seat's getting-close check runs after the turn the venue's streams refresh on", async () => {
    const venueId = await addVenueLike(t.db, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...defaultVenueSettings, gettingCloseAt: 2 }) });
    const parties = [];
    for (let i = 0; i < 4; i++) parties.push(await joinParty(t, {}, { venueId }));
    const order: string[] = [];
    t.app.queueDeps.hooks!.on('gettingClose', async (_trx, entry) => void order.push(`getting close: ${entry.id}`));
    // As the hub does on an event (VenueHub.onEvent → drain): its refresh waits for setImmediate.
    const unsubscribe = t.app.bus.subscribe(venueId, (event) => {
      if (event.type === 'seat') setImmediate(() => order.push('streams refresh'));
    });
    try {
      await seatEntry(t.app.queueDeps, (await findEntryById(t.db.kysely, parties[0]!.id))!);
    } finally {
      unsubscribe();
    }
    // Parties 1 and 2 joined that close (no message ever); party 3 is now second.
    expect(order).toEqual(['streams refresh', `getting close: ${parties[2]!.id}`]);
  });
});
