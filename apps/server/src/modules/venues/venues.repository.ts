import type { Kysely } from 'kysely';
import type { Database, NewVenueRow, VenueRow, VenueRowUpdate } from '../../db/types.js';
import { forgetVenue } from './venue-cache.js';

type Executor = Kysely<Database>;

export function findVenueById(db: Executor, id: string): Promise<VenueRow | undefined> {
  return db.selectFrom('venues').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findVenueBySlug(db: Executor, slug: string): Promise<VenueRow | undefined> {
  return db.selectFrom('venues').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function insertVenue(db: Executor, row: NewVenueRow): Promise<void> {
  await db.insertInto('venues').values(row).execute();
}

export async function updateVenue(db: Executor, id: string, patch: VenueRowUpdate): Promise<void> {
  // Before and after: a read between the two could keep the old row for the cache's lifetime.
  forgetVenue(id);
  await db.updateTable('venues').set(patch).where('id', '=', id).execute();
  forgetVenue(id);
}

export async function countVenues(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('venues')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
