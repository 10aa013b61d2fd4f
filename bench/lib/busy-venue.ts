// A busy venue for the API bench (bench/api.bench.ts), join-ab's busy mode and the join profile (bench/lib/profile-join.ts):
// a venue like the demo bistro that lists its tables and whose floor has learnt enough to forecast
// (docs/decisions/022-wait-estimates.md, "The floor"), so every read and join goes through the
// whole-queue forecast. Its ~200 waiting parties join through the API like any others (`fillBusyVenue`).
import { randomBytes } from 'node:crypto';
import type { Config } from '../../apps/server/src/config.js';
import { openDb } from '../../apps/server/src/db/connect.js';
import { upsertFloor } from '../../apps/server/src/modules/estimate/venue-floor.repository.js';
import { findVenueById, insertVenue } from '../../apps/server/src/modules/venues/venues.repository.js';
import { DEMO_BISTRO_ID } from '../../apps/server/src/seed/demo.js';
import { BUSY_TABLES, busyFloorState } from '../../apps/server/test/busy-floor.js';

/** Adds the busy venue to a migrated, seeded store (seedUncappedDemo first); returns its id. */
export async function addBusyVenue(database: Config['database'], now = Date.now()): Promise<string> {
  const db = openDb(database);
  try {
    const source = await findVenueById(db.kysely, DEMO_BISTRO_ID);
    if (!source) throw new Error('the demo bistro is missing');
    const id = randomBytes(12).toString('hex');
    const settings = { ...JSON.parse(source.settings), maxWaitingParties: null, tables: BUSY_TABLES };
    await insertVenue(db.kysely, { ...source, id, slug: `busy-${id}`, next_seq: 1, settings: JSON.stringify(settings) });
    // A floor with a history: turns and walks seen, every table busy since a while.
    const state = busyFloorState(now, 0.04);
    state.at = now;
    await upsertFloor(db.kysely, id, JSON.stringify(state), now);
    return id;
  } finally {
    await db.close();
  }
}

/**
 * A busy venue's queue filled through the API: `parties` joins of one to eight in turn, ten at a
 * time (each join there forecasts the queue); `bodyOf` makes a join's body for a party size. The
 * new entries' ids, in order.
 */
export async function fillBusyVenue(url: string, venue: string, bodyOf: (partySize: number) => string, parties = 200): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < parties; i += 10) {
    const joined = await Promise.all(
      Array.from({ length: Math.min(10, parties - i) }, async (_, k) => {
        const res = await fetch(`${url}/api/waitlists/${venue}/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodyOf(((i + k) % 8) + 1),
        });
        if (res.status !== 201) throw new Error(`filling a busy venue: join answered ${res.status} ${await res.text()}`);
        return ((await res.json()) as { _id: string })._id;
      }),
    );
    ids.push(...joined);
  }
  return ids;
}
