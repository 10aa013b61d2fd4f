import type { Kysely } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.js';
import type { Dialect } from '../../db/connect.js';
import type { Database, StaffVenueTable, VenueRow } from '../../db/types.js';

/**
 * The `staff_venues` table, who runs which venue with which role: the only place with its SQL
 * (docs/ARCHITECTURE.md habit 3). `listStaffVenues` joins venues and `listVenueMembers` joins staff:
 * both are about the binding, so they live here.
 */

type Executor = Kysely<Database>;

export type StaffRoleValue = StaffVenueTable['role'];

/** Binds a staff member to a venue with a role; binding twice is harmless and keeps the first role. */
export async function addStaffVenue(db: Executor, staffId: string, venueId: string, role: StaffRoleValue): Promise<void> {
  await db
    .insertInto('staff_venues')
    .values({ staff_id: staffId, venue_id: venueId, role })
    .onConflict((oc) => oc.columns(['staff_id', 'venue_id']).doNothing())
    .execute();
}

export function listStaffVenues(
  db: Executor,
  staffId: string,
): Promise<(Pick<VenueRow, 'id' | 'slug' | 'name_pt' | 'name_en' | 'name_fr' | 'name_es'> & { role: StaffRoleValue })[]> {
  return db
    .selectFrom('staff_venues')
    .innerJoin('venues', 'venues.id', 'staff_venues.venue_id')
    .select(['venues.id', 'venues.slug', 'venues.name_pt', 'venues.name_en', 'venues.name_fr', 'venues.name_es', 'staff_venues.role'])
    .where('staff_venues.staff_id', '=', staffId)
    .orderBy('venues.name_pt')
    .execute();
}

/**
 * The staff member's role at the venue; undefined when they do not run it. With `lock` (PostgreSQL)
 * the row stays locked until the transaction ends, as `listVenueMembers` locks the team.
 */
export async function findStaffRole(db: Executor, staffId: string, venueId: string, lock?: Dialect): Promise<StaffRoleValue | undefined> {
  if (lock !== 'postgres') return (await staffRole(db, { staffId, venueId })).rows[0]?.role;
  const query = db.selectFrom('staff_venues').select('role').where('staff_id', '=', staffId).where('venue_id', '=', venueId);
  return (await query.forUpdate().executeTakeFirst())?.role;
}

const staffRole = compiledOnce<{ staffId: string; venueId: string }, { role: StaffRoleValue }>((db, arg) =>
  db.selectFrom('staff_venues').select('role').where('staff_id', '=', arg('staffId')).where('venue_id', '=', arg('venueId')).compile(),
);

/**
 * The venue's team, oldest account first. With `lock` (PostgreSQL) the rows stay locked until the
 * transaction ends, so two owners changing the team at once cannot both leave it without an owner.
 */
export function listVenueMembers(db: Executor, venueId: string, lock?: Dialect) {
  const query = db
    .selectFrom('staff_venues')
    .innerJoin('staff', 'staff.id', 'staff_venues.staff_id')
    .select(['staff.id', 'staff.email', 'staff_venues.role'])
    .where('staff_venues.venue_id', '=', venueId)
    .orderBy('staff.created_at')
    .orderBy('staff.id');
  return (lock === 'postgres' ? query.forUpdate() : query).execute();
}

export async function setStaffRole(db: Executor, staffId: string, venueId: string, role: StaffRoleValue): Promise<void> {
  await db.updateTable('staff_venues').set({ role }).where('staff_id', '=', staffId).where('venue_id', '=', venueId).execute();
}

export async function removeStaffVenue(db: Executor, staffId: string, venueId: string): Promise<void> {
  await db.deleteFrom('staff_venues').where('staff_id', '=', staffId).where('venue_id', '=', venueId).execute();
}

/** Unbinds a staff member from every venue (staff.repository.ts `deleteStaff`). */
export async function removeStaffVenues(db: Executor, staffId: string): Promise<void> {
  await db.deleteFrom('staff_venues').where('staff_id', '=', staffId).execute();
}
