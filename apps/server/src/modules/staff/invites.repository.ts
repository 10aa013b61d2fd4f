import type { Kysely } from 'kysely';
import type { Database, StaffInviteRow } from '../../db/types.js';

type Executor = Kysely<Database>;

/** Invitations to a venue's team (docs/decisions/023-staff-roles.md): only the token's hash is kept. */
export async function insertInvite(db: Executor, row: StaffInviteRow): Promise<void> {
  await db.insertInto('staff_invites').values(row).execute();
}

export function findInviteByTokenHash(db: Executor, tokenHash: string): Promise<StaffInviteRow | undefined> {
  return db.selectFrom('staff_invites').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Invitations not used and not expired, newest first. */
export function listPendingInvites(db: Executor, venueId: string, now: number): Promise<StaffInviteRow[]> {
  return db
    .selectFrom('staff_invites')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Withdraws the venue's unused invitations of one email (a new one replaces them); answers how many. */
export async function deleteUnusedInvites(db: Executor, venueId: string, filter: { email?: string; id?: string }): Promise<number> {
  let query = db.deleteFrom('staff_invites').where('venue_id', '=', venueId).where('used_at', 'is', null);
  if (filter.email !== undefined) query = query.where('email', '=', filter.email);
  if (filter.id !== undefined) query = query.where('id', '=', filter.id);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes invitations used or expired before `cutoff` (with the invitee's email); answers how many. */
export async function deleteInvitesEndedBefore(db: Executor, cutoff: number): Promise<number> {
  const result = await db
    .deleteFrom('staff_invites')
    .where((eb) => eb.or([eb('used_at', '<', cutoff), eb('expires_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks the invitation used, once: false when another accept took it first. */
export async function markInviteUsed(db: Executor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('staff_invites')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** An account's invitations outlive it, without their sender (staff.repository.ts `deleteStaff`). */
export async function forgetInviter(db: Executor, staffId: string): Promise<void> {
  await db.updateTable('staff_invites').set({ created_by: null }).where('created_by', '=', staffId).execute();
}
