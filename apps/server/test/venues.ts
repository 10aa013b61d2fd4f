import { randomBytes } from 'node:crypto';
import type { Db } from '../src/db/connect.js';
import { findVenueById, insertVenue } from '../src/modules/venues/venues.repository.js';

/** A fresh venue with the settings of `sourceId` and an empty queue; returns its id. */
export async function addVenueLike(db: Db, sourceId: string, patch: { waitlist_locked?: number } = {}): Promise<string> {
  const source = await findVenueById(db.kysely, sourceId);
  if (!source) throw new Error(`no venue ${sourceId}`);
  const id = randomBytes(12).toString('hex');
  await insertVenue(db.kysely, { ...source, ...patch, id, slug: `venue-${id}`, next_seq: 1 });
  return id;
}
