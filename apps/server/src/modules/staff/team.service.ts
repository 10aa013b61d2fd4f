import { ErrorCode, type StaffRole, type TeamMember, type TeamResponse } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { listPendingInvites } from './invites.repository.js';
import { mayInvite, toTeamInvite } from './invites.service.js';
import { findStaffRole, listVenueMembers, removeStaffVenue, setStaffRole } from './staff-venues.repository.js';
import { deleteSessionsOfStaff } from './staff-sessions.repository.js';
import type { TellStaffNews } from './staff.service.js';

/**
 * A venue's team, run by its owners (docs/product.md §9, docs/decisions/023-staff-roles.md). Owners
 * are peers: any of them may change or remove any member, themselves included, as long as the
 * venue keeps an owner (409 LAST_OWNER). Every change locks the venue's team rows first on
 * PostgreSQL, so two owners acting at once cannot both step down.
 */

type Member = Awaited<ReturnType<typeof listVenueMembers>>[number];

const toMember = (row: Member, actorId: string): TeamMember => ({
  _id: row.id,
  email: row.email,
  role: row.role,
  isYou: row.id === actorId,
});

export async function getTeam(db: Db, venueId: string, actorId: string, now: number): Promise<TeamResponse> {
  const [members, invites] = await Promise.all([listVenueMembers(db.kysely, venueId), listPendingInvites(db.kysely, venueId, now)]);
  const roleOf = (staffId: string | null) => members.find((m) => m.id === staffId)?.role;
  // An invitation whose sender may no longer invite is dead (docs/security.md): not pending.
  const alive = invites.filter((invite) => mayInvite(roleOf(invite.created_by), invite.role));
  return { venueId, members: members.map((m) => toMember(m, actorId)), invites: alive.map(toTeamInvite) };
}

/** The member's row among the locked team, or 404 STAFF_NOT_FOUND; 409 LAST_OWNER if `leaves` would leave no owner. */
function checkChange(team: Member[], staffId: string, leavesOwnership: (member: Member) => boolean): Member {
  const member = team.find((m) => m.id === staffId);
  if (!member) throw new AppError(ErrorCode.STAFF_NOT_FOUND);
  const owners = team.filter((m) => m.role === 'owner').length;
  if (member.role === 'owner' && leavesOwnership(member) && owners <= 1) throw new AppError(ErrorCode.LAST_OWNER);
  return member;
}

/** Makes a member owner or host. */
export async function setMemberRole(
  db: Db,
  venueId: string,
  staffId: string,
  role: StaffRole,
  actorId: string,
  tell: TellStaffNews,
): Promise<TeamMember> {
  const member = await inTransaction(db.kysely, async (trx) => {
    const found = checkChange(await listVenueMembers(trx, venueId, db.dialect), staffId, () => role !== 'owner');
    await setStaffRole(trx, staffId, venueId, role);
    return toMember({ ...found, role }, actorId);
  });
  // Their console streams at this venue end and come back under the new role (docs/security.md).
  tell({ kind: 'role-changed', staffId, venueId });
  return member;
}

/**
 * Takes a member off the venue's team: they run it no more, and every session of theirs ends (an
 * account is signed in for all its venues at once), so they sign in again for any other venue.
 */
export async function removeMember(db: Db, venueId: string, staffId: string, tell: TellStaffNews): Promise<void> {
  await inTransaction(db.kysely, async (trx) => {
    checkChange(await listVenueMembers(trx, venueId, db.dialect), staffId, () => true);
    await removeStaffVenue(trx, staffId, venueId);
    await deleteSessionsOfStaff(trx, staffId);
  });
  tell({ kind: 'role-changed', staffId, venueId });
  tell({ kind: 'sessions-ended', staffId });
}

/** Ends every session of a member of this venue's team; answers how many ended. */
export async function endMemberSessions(db: Db, venueId: string, staffId: string, tell: TellStaffNews): Promise<{ ended: number }> {
  if (!(await findStaffRole(db.kysely, staffId, venueId))) throw new AppError(ErrorCode.STAFF_NOT_FOUND);
  const ended = await deleteSessionsOfStaff(db.kysely, staffId);
  tell({ kind: 'sessions-ended', staffId });
  return { ended };
}
