import { randomBytes } from 'node:crypto';
import type { VenueSettings } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/connect.js';
import { DEMO_BISTRO_ID } from './fixtures.js';
import { BISTRO_HOST, CLUB_HOST, loginCookie } from './staff-session.js';
import { findVenueById, insertVenue } from '../src/modules/venues/venues.repository.js';

/** A fresh venue with the settings of `sourceId` and an empty queue; returns its id. */
export async function addVenueLike(db: Db, sourceId: string, patch: { waitlist_locked?: number; settings?: string } = {}): Promise<string> {
  const source = await findVenueById(db.kysely, sourceId);
  if (!source) throw new Error(`no venue ${sourceId}`);
  const id = randomBytes(12).toString('hex');
  await insertVenue(db.kysely, { ...source, ...patch, id, slug: `venue-${id}`, next_seq: 1 });
  return id;
}

/** Changes the demo bistro's settings as staff would (PATCH …/settings), so every cache hears it. */
export async function setVenueSettings(
  t: { app: FastifyInstance },
  settings: Partial<VenueSettings>,
  venueId = DEMO_BISTRO_ID,
): Promise<void> {
  const cookie = await loginCookie(t.app, venueId === DEMO_BISTRO_ID ? BISTRO_HOST : CLUB_HOST);
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/host/venues/${venueId}/settings`,
    headers: { cookie },
    payload: { settings },
  });
  if (res.statusCode !== 200) throw new Error(`settings answered ${res.statusCode}: ${res.body}`);
}
