import * as z from 'zod/mini';
import { VenueId } from './ids.js';
import { VenueName } from './venue.js';

/**
 * Staff roles (docs/product.md §9, docs/decisions/023-staff-roles.md): an `owner` edits the venue
 * (settings, branding, images, message texts) and its team; a `host` runs the queue. A role is held
 * per venue: one account may own one venue and host at another.
 */
export const StaffRole = z.enum(['owner', 'host']);
export type StaffRole = z.infer<typeof StaffRole>;

/** How long an invitation link stays good. */
export const STAFF_INVITE_TTL_MS = 72 * 3_600_000;
/** The password rules of every staff password: the admin command's, the invite's, the change's. */
export const STAFF_PASSWORD_MIN = 8;
export const STAFF_PASSWORD_MAX = 200;

const passwordTooShort = `The password needs at least ${STAFF_PASSWORD_MIN} characters.`;
/** A new password. Leading and trailing spaces count: a password is never trimmed. */
export const NewStaffPassword = z
  .string()
  .check(
    z.minLength(STAFF_PASSWORD_MIN, { error: passwordTooShort }),
    z.maxLength(STAFF_PASSWORD_MAX, { error: `The password has at most ${STAFF_PASSWORD_MAX} characters.` }),
  );
/** A password given to prove who one is (its rules may have been looser when it was set). */
const GivenPassword = z.string().check(z.minLength(1, { error: 'Enter the password.' }), z.maxLength(STAFF_PASSWORD_MAX));

export const TeamMember = z.object({
  _id: z.string(),
  email: z.string(),
  role: StaffRole,
  /** The member asking: the console does not offer them buttons that lock themselves out. */
  isYou: z.boolean(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInvite = z.object({
  _id: z.string(),
  email: z.string(),
  role: StaffRole,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TeamInvite = z.infer<typeof TeamInvite>;

/** GET /api/host/venues/{venueId}/team (owners): the venue's members and its pending invitations. */
export const TeamResponse = z.object({ venueId: VenueId, members: z.array(TeamMember), invites: z.array(TeamInvite) });
export type TeamResponse = z.infer<typeof TeamResponse>;

/** POST /api/host/venues/{venueId}/invites (owners): invite a host by email. */
export const TeamInviteBody = z.strictObject({
  email: z.email({ error: 'Enter a valid email.' }).check(z.maxLength(254, { error: 'Enter a valid email.' })),
});
export type TeamInviteBody = z.infer<typeof TeamInviteBody>;
export const TeamInviteResponse = z.object({ invite: TeamInvite });
export type TeamInviteResponse = z.infer<typeof TeamInviteResponse>;

/** PATCH /api/host/venues/{venueId}/staff/{staffId} (owners): make a member owner or host. */
export const TeamRoleBody = z.strictObject({ role: StaffRole });
export type TeamRoleBody = z.infer<typeof TeamRoleBody>;
export const TeamMemberResponse = z.object({ member: TeamMember });
export type TeamMemberResponse = z.infer<typeof TeamMemberResponse>;

/** POST /api/host/venues/{venueId}/staff/{staffId}/sessions/end (owners): how many sessions ended. */
export const EndedSessionsResponse = z.object({ ended: z.number() });
export type EndedSessionsResponse = z.infer<typeof EndedSessionsResponse>;

/** POST /api/host/password (everyone): the current password, then the new one; other sessions end. */
export const ChangePasswordBody = z.strictObject({ currentPassword: GivenPassword, newPassword: NewStaffPassword });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** GET /api/host/invites/{token}: what the link is for, before the invitee answers it. */
export const InviteInfoResponse = z.object({
  venue: z.object({ _id: VenueId, name: VenueName }),
  email: z.string(),
  role: StaffRole,
  expiresAt: z.string(),
  /** The email has an account already: accepting asks for that account's password, not a new one. */
  hasAccount: z.boolean(),
});
export type InviteInfoResponse = z.infer<typeof InviteInfoResponse>;

/**
 * POST /api/host/invites/{token}/accept: a new account's password (at least 8 characters), or, when
 * the email has an account, that account's password. Answers like a login (HostMeResponse, cookie).
 */
export const AcceptInviteBody = z.strictObject({ password: GivenPassword });
export type AcceptInviteBody = z.infer<typeof AcceptInviteBody>;

/** An invitation token as the link carries it: 32 random bytes, base64url. */
export const isInviteToken = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);
