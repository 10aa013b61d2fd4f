import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Database, NewVenueRow, VenueRow, VenueRowUpdate } from '../../db/types.js';
import { forgetVenue } from './venue-cache.js';

type Executor = Kysely<Database>;

const venueById = compiledOnce<{ id: string }, VenueRow>((db, arg) =>
  db.selectFrom('venues').selectAll().where('id', '=', arg('id')).compile(),
);

export async function findVenueById(db: Executor, id: string): Promise<VenueRow | undefined> {
  return (await venueById(db, { id })).rows[0];
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

// Compiled once per dialect (db/compiled-once.ts): every join runs them (docs/decisions/042-cheaper-joins.md).
const venueLock = compiledOnce<
  { venueId: string; postgres: boolean },
  Pick<VenueRow, 'id' | 'next_seq' | 'waitlist_active' | 'waitlist_locked'>
>(
  (db, arg, { postgres }) => {
    const query = db.selectFrom('venues').select(['id', 'next_seq', 'waitlist_active', 'waitlist_locked']).where('id', '=', arg('venueId'));
    // NO KEY: the join changes no key of the row, and rows that reference the venue (a call's message,
    // an entry) must not wait for it while holding what the join needs next: that would deadlock.
    return (postgres ? query.forNoKeyUpdate() : query).compile();
  },
  ({ postgres }) => (postgres ? 'postgres' : 'sqlite'),
);

/**
 * The venue row, locked until the transaction ends (PostgreSQL; SQLite transactions are already
 * serial). The parties waiting there, for the venue's cap, come with the rest of what stands
 * before a newcomer (queue/waiting-counts.repository.ts `countBeforeNewcomer`), read under this lock.
 */
export async function lockVenueForJoin(trx: Executor, venueId: string, dialect: 'sqlite' | 'postgres') {
  return (await venueLock(trx, { venueId, postgres: dialect === 'postgres' })).rows[0];
}

const seqUpdate = compiledOnce<{ venueId: string; nextSeq: number }>((db, arg) =>
  db
    .updateTable('venues')
    .set({ next_seq: arg('nextSeq') })
    .where('id', '=', arg('venueId'))
    .compile(),
);

export async function advanceVenueSeq(trx: Executor, venueId: string, nextSeq: number): Promise<void> {
  await seqUpdate(trx, { venueId, nextSeq });
}
