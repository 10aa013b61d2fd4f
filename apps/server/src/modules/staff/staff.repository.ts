import type { Kysely } from 'kysely';
import type { Database, StaffRow } from '../../db/types.js';
import { forgetInviter } from './invites.repository.js';
import { deleteSessionsOfStaff } from './staff-sessions.repository.js';
import { removeStaffVenues } from './staff-venues.repository.js';

/** The `staff` table, staff accounts: the only place with its SQL (docs/ARCHITECTURE.md habit 3, one repository per table). */

type Executor = Kysely<Database>;

export type { StaffRoleValue } from './staff-venues.repository.js';

export function findStaffByEmail(db: Executor, email: string): Promise<StaffRow | undefined> {
  return db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findStaffById(db: Executor, id: string): Promise<StaffRow | undefined> {
  return db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertStaff(db: Executor, row: StaffRow): Promise<void> {
  await db.insertInto('staff').values(row).execute();
}

export async function updateStaffPassword(db: Executor, staffId: string, passwordHash: string): Promise<void> {
  await db.updateTable('staff').set({ password_hash: passwordHash }).where('id', '=', staffId).execute();
}

/** Removes a staff account with its venues and sessions (children first: no reliance on cascades). */
export async function deleteStaff(db: Executor, staffId: string): Promise<void> {
  await forgetInviter(db, staffId);
  await deleteSessionsOfStaff(db, staffId);
  await removeStaffVenues(db, staffId);
  await db.deleteFrom('staff').where('id', '=', staffId).execute();
}
