import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  type HostMeResponse,
  type InviteInfoResponse,
  STAFF_INVITE_TTL_MS,
  type StaffRole,
  type TeamInvite,
  isInviteToken,
  staffInvitePath,
} from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/connect.js';
import type { Database, StaffInviteRow } from '../../db/types.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError } from '../../lib/app-error.js';
import { newOrderedId, newVenueId } from '../../lib/ids.js';
import { getVenue } from '../venues/venues.service.js';
import * as invites from './invites.repository.js';
import type { LoginLimiter } from './login-limiter.js';
import { hashPassword } from './password.js';
import * as repo from './staff.repository.js';
import { addStaffVenue, findStaffRole } from './staff-venues.repository.js';
import { deleteExpiredSessions } from './staff-sessions.repository.js';
import { type StaffIdentity, checkNewPassword, getMe, hashToken, normaliseEmail, openSession, provePassword } from './staff.service.js';

type Db = Kysely<Database>;

/** An invitation email, queued in the caller's transaction (the notifications module's outbox). */
export interface InviteMail {
  to: string;
  subject: string;
  body: string;
  /** The body with the link masked: what the store keeps once the email went out. */
  safeBody: string;
  idempotencyKey: string;
}
export type QueueInviteMail = (trx: Db, mail: InviteMail) => Promise<unknown>;

export const toTeamInvite = (row: StaffInviteRow): TeamInvite => ({
  _id: row.id,
  email: row.email,
  role: row.role,
  createdAt: new Date(row.created_at).toISOString(),
  expiresAt: new Date(row.expires_at).toISOString(),
});

function inviteMail(venueName: string, link: string): Pick<InviteMail, 'subject' | 'body'> {
  return {
    subject: `Convite para a equipe de ${venueName} · Invitation to the ${venueName} team`,
    body:
      `Você foi convidado(a) para receber clientes na fila de ${venueName} com o Vez.\n` +
      `Abra o link para criar sua senha (vale por 72 horas, uma vez só):\n${link}\n\n` +
      `You were invited to run the ${venueName} waitlist with Vez.\n` +
      `Open the link to set your password (good for 72 hours, once):\n${link}\n`,
  };
}

/**
 * An owner invites a host by email (docs/product.md §9): a single-use link to the console, good for
 * 72 hours, sent through the message queue. A new invitation of the same email replaces the
 * unused one (its link stops working); a member of the team cannot be invited again (409).
 */
export async function inviteHost(
  db: Db,
  queueMail: QueueInviteMail,
  input: { venueId: string; email: string; invitedBy: string; baseUrl: string },
  now: number,
): Promise<TeamInvite> {
  const email = normaliseEmail(input.email);
  const venue = await getVenue(db, input.venueId);
  const token = randomBytes(32).toString('base64url');
  const link = `${input.baseUrl.replace(/\/$/, '')}${staffInvitePath(token)}`;
  const row: StaffInviteRow = {
    id: newOrderedId(now),
    token_hash: hashToken(token),
    venue_id: input.venueId,
    email,
    role: 'host',
    created_by: input.invitedBy,
    created_at: now,
    expires_at: now + STAFF_INVITE_TTL_MS,
    used_at: null,
  };
  await inTransaction(db, async (trx) => {
    const existing = await repo.findStaffByEmail(trx, email);
    if (existing && (await findStaffRole(trx, existing.id, input.venueId))) throw new AppError(ErrorCode.ALREADY_STAFF, undefined, 'email');
    await invites.deleteUnusedInvites(trx, input.venueId, { email });
    await invites.insertInvite(trx, row);
    const mail = inviteMail(venue.name.pt, link);
    const masked = inviteMail(venue.name.pt, `${input.baseUrl.replace(/\/$/, '')}/host/invite/…`);
    await queueMail(trx, { to: email, ...mail, safeBody: masked.body, idempotencyKey: `staff-invite:${row.id}` });
  });
  return toTeamInvite(row);
}

/** Withdraws an unused invitation of the venue: its link answers 404 from now on. */
export async function revokeInvite(db: Db, venueId: string, inviteId: string): Promise<void> {
  if ((await invites.deleteUnusedInvites(db, venueId, { id: inviteId })) === 0) throw new AppError(ErrorCode.INVITE_NOT_FOUND);
}

/** The invitation a link's token opens: 404 unknown or withdrawn, 410 used or expired. */
async function findUsableInvite(db: Db, token: string, now: number): Promise<StaffInviteRow> {
  const invite = isInviteToken(token) ? await invites.findInviteByTokenHash(db, hashToken(token)) : undefined;
  if (!invite) throw new AppError(ErrorCode.INVITE_NOT_FOUND);
  if (invite.used_at !== null) throw new AppError(ErrorCode.INVITE_USED);
  if (invite.expires_at <= now) throw new AppError(ErrorCode.INVITE_EXPIRED);
  return invite;
}

/** Who may invite to which role (docs/decisions/023-staff-roles.md): an owner, to either role. */
export const mayInvite = (senderRole: StaffRole | undefined, invited: StaffRole): boolean =>
  senderRole === 'owner' && (invited === 'host' || invited === 'owner');

/**
 * An invitation dies with its sender's membership or role (docs/security.md): 410
 * INVITE_SENDER_NOT_ALLOWED unless whoever sent it still runs the venue in a role that may invite
 * to the invited role. With `lock` (PostgreSQL) the sender's row stays locked to the end of the
 * transaction, so a removal or a role change at the same moment waits for the accept, or wins.
 */
async function checkSender(db: Db, invite: StaffInviteRow, lock?: Dialect): Promise<void> {
  const role = invite.created_by === null ? undefined : await findStaffRole(db, invite.created_by, invite.venue_id, lock);
  if (!mayInvite(role, invite.role)) throw new AppError(ErrorCode.INVITE_SENDER_NOT_ALLOWED);
}

/** What the link is for; the token proves the email, so whether it has an account may be told. */
export async function readInvite(db: Db, token: string, now: number): Promise<InviteInfoResponse> {
  const invite = await findUsableInvite(db, token, now);
  await checkSender(db, invite);
  const venue = await getVenue(db, invite.venue_id);
  return {
    venue: { _id: venue.id, name: venue.name },
    email: invite.email,
    role: invite.role,
    expiresAt: new Date(invite.expires_at).toISOString(),
    hasAccount: (await repo.findStaffByEmail(db, invite.email)) !== undefined,
  };
}

/**
 * Accepts an invitation (docs/decisions/023-staff-roles.md). The token proves the email. Without an
 * account, the password given becomes the new account's. With one, the venue is added only when the
 * password given is that account's (checked and throttled like a login): a token alone never
 * changes an existing account. The invitation is marked used in the same transaction that binds the
 * venue, so it works once. Opens a session, like a login.
 */
export async function acceptInvite(
  db: Db,
  limiter: LoginLimiter,
  token: string,
  password: string,
  address: string,
  now: number,
  dialect?: Dialect,
): Promise<{ session: { token: string; identity: StaffIdentity; expiresAt: number }; me: HostMeResponse }> {
  const invite = await findUsableInvite(db, token, now);
  await checkSender(db, invite);
  const existing = await repo.findStaffByEmail(db, invite.email);
  if (existing) await provePassword(limiter, existing, password, address, 'password');
  else checkNewPassword(password, 'password');
  const passwordHash = existing ? undefined : await hashPassword(password);
  const staffId = existing?.id ?? newVenueId();
  // An account made for this email meanwhile (another venue's invitation, at the same moment): its
  // password decides, so this accept is refused and changes nothing.
  const accountAppeared = () => new AppError(ErrorCode.WRONG_PASSWORD, 'This email has an account now: give its password.', 'password');
  await inTransaction(db, async (trx) => {
    // Again under the lock: the sender may have been removed or made host while the password was checked.
    await checkSender(trx, invite, dialect);
    if (!(await invites.markInviteUsed(trx, invite.id, now))) throw new AppError(ErrorCode.INVITE_USED);
    if (passwordHash) {
      if (await repo.findStaffByEmail(trx, invite.email)) throw accountAppeared();
      await repo.insertStaff(trx, { id: staffId, email: invite.email, password_hash: passwordHash, created_at: now });
    }
    await addStaffVenue(trx, staffId, invite.venue_id, invite.role);
  }).catch((error: unknown) => {
    const code = (error as { code?: unknown } | null)?.code;
    throw code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' ? accountAppeared() : error;
  });
  const identity = { staffId, email: invite.email };
  return { session: await openSession(db, identity, now), me: await getMe(db, identity) };
}

/**
 * The retention job's part of the team (docs/security.md, Retention): an invitation used or expired
 * before `cutoff` has done its work, and its email goes with it; an expired session goes too (a
 * login cleans them as well, but a team nobody logs into would keep them). Answers how many
 * invitations went.
 */
export async function pruneTeamData(db: Db, cutoff: number, now: number): Promise<number> {
  await deleteExpiredSessions(db, now);
  return invites.deleteInvitesEndedBefore(db, cutoff);
}
