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

/** Every venue's id, slug and name, oldest first (the admin command `venues`). */
export function listVenueNames(db: Executor): Promise<Pick<VenueRow, 'id' | 'slug' | 'name_pt'>[]> {
  return db.selectFrom('venues').select(['id', 'slug', 'name_pt']).orderBy('created_at').execute();
}

export async function countVenues(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('venues')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The venue row, locked until the transaction ends (PostgreSQL; SQLite transactions are already
 * serial), with the number of parties waiting there (kept by migration 005's triggers) for the
 * venue's cap: one round trip. The venue_waiting subquery belongs to the venue row it counts for
 * (queue/waiting-counts.repository.ts reads that table otherwise).
 */
export function lockVenueForJoin(trx: Executor, venueId: string, dialect: 'sqlite' | 'postgres') {
  const query = trx
    .selectFrom('venues')
    .select(['id', 'next_seq', 'waitlist_active', 'waitlist_locked'])
    .select((eb) =>
      eb
        .selectFrom('venue_waiting')
        .select((w) => w.fn.coalesce(w.fn.sum<number | string>('waiting'), w.lit(0)).as('n'))
        .whereRef('venue_waiting.venue_id', '=', 'venues.id')
        .as('waiting'),
    )
    .where('id', '=', venueId);
  // NO KEY: the join changes no key of the row, and rows that reference the venue (a call's message,
  // an entry) must not wait for it while holding what the join needs next: that would deadlock.
  return (dialect === 'postgres' ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

export async function advanceVenueSeq(trx: Executor, venueId: string, nextSeq: number): Promise<void> {
  await trx.updateTable('venues').set({ next_seq: nextSeq }).where('id', '=', venueId).execute();
}
