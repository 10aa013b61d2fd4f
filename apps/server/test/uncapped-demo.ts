import type { Config } from '../src/config.js';
import { migrateToLatest, openDb } from '../src/db/connect.js';
import { findVenueById, updateVenue } from '../src/modules/venues/venues.repository.js';
import { DEMO_BISTRO_ID, seedDemo } from '../src/seed/demo.js';

/**
 * Prepares a store as a first start would (migrations, demo data), with no cap of waiting parties
 * at the demo bistro: load runs (crash test, benchmarks) queue far more than a venue's default 200
 * (docs/product.md §3). The server started on it afterwards finds the data there and seeds nothing.
 */
export async function seedUncappedDemo(database: Config['database']): Promise<void> {
  const db = openDb(database);
  try {
    await migrateToLatest(db);
    await seedDemo(db);
    const venue = await findVenueById(db.kysely, DEMO_BISTRO_ID);
    if (!venue) throw new Error('the demo bistro is missing');
    await updateVenue(db.kysely, DEMO_BISTRO_ID, { settings: JSON.stringify({ ...JSON.parse(venue.settings), maxWaitingParties: null }) });
  } finally {
    await db.close();
  }
}
