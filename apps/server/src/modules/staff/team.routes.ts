import {
  AcceptInviteBody,
  ChangePasswordBody,
  EndedSessionsResponse,
  HostMeResponse,
  InviteInfoResponse,
  TeamInviteBody,
  TeamInviteResponse,
  TeamMemberResponse,
  TeamResponse,
  TeamRoleBody,
} from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import type { StaffNews } from '../../plugins/bus.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { readSessionToken } from '../../plugins/sessions.js';
import type { LoginLimiter } from './login-limiter.js';
import { acceptInvite, inviteHost, readInvite, revokeInvite } from './invites.service.js';
import { ownerOfPathVenue, requireStaff, setSessionCookie, verifiedStaff } from './staff-auth.js';
import { changeOwnPassword } from './staff.service.js';
import { endMemberSessions, getTeam, removeMember, setMemberRole } from './team.service.js';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

export interface TeamRoutesOptions {
  /** The login's limiter: wrong passwords here slow the same account and address down. */
  limiter: LoginLimiter;
  /** Attempts per client address per window of the routes that take a password without a session. */
  maxPerAddress: number;
  windowMs: number;
}

/**
 * The team and the staff's own account (docs/product.md §9, docs/decisions/023-staff-roles.md).
 * Registered inside hostRoutes, so its no-store answers and cross-site write guard cover these too.
 */
export async function teamRoutes(app: FastifyInstance, options: TeamRoutesOptions): Promise<void> {
  const db = app.db;
  const now = app.now;
  const ownerFirst = ownerOfPathVenue(db, now);
  const tell = (news: StaffNews) => app.bus.publishStaffNews(news);
  const passwordRateLimit = { rateLimit: { max: options.maxPerAddress, timeWindow: options.windowMs } };

  app.get<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/team',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: "The venue's members with their roles and its pending invitations (owners)",
        params: pathParams('venueId'),
        response: { 200: TeamResponse, ...errors(400, 401, 403) },
      },
    },
    async (request) => getTeam(db, request.params.venueId, verifiedStaff(request).staffId, now()),
  );

  app.post<{ Params: { venueId: string }; Body: TeamInviteBody }>(
    '/host/venues/:venueId/invites',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: 'Invite a host by email (owners): a single-use link to the console, good for 72 h, sent by email',
        params: pathParams('venueId'),
        body: TeamInviteBody,
        response: { 201: TeamInviteResponse, ...errors(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const invite = await inviteHost(
        db.kysely,
        (trx, mail) => app.notifier.enqueue(trx, { channel: 'email', ...mail }),
        {
          venueId: request.params.venueId,
          email: request.body.email,
          invitedBy: verifiedStaff(request).staffId,
          baseUrl: app.config.publicBaseUrl,
        },
        now(),
      );
      return reply.status(201).send({ invite });
    },
  );

  app.delete<{ Params: { venueId: string; inviteId: string } }>(
    '/host/venues/:venueId/invites/:inviteId',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: 'Withdraw an unused invitation (owners): its link answers 404 from then on',
        params: pathParams('venueId', 'inviteId'),
        response: { 204: { type: 'null' }, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await revokeInvite(db.kysely, request.params.venueId, request.params.inviteId);
      return reply.status(204).send();
    },
  );

  app.patch<{ Params: { venueId: string; staffId: string }; Body: TeamRoleBody }>(
    '/host/venues/:venueId/staff/:staffId',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: 'Make a member owner or host (owners); 409 LAST_OWNER if the venue would have no owner',
        params: pathParams('venueId', 'staffId'),
        body: TeamRoleBody,
        response: { 200: TeamMemberResponse, ...errors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) => ({
      member: await setMemberRole(
        db,
        request.params.venueId,
        request.params.staffId,
        request.body.role,
        verifiedStaff(request).staffId,
        tell,
      ),
    }),
  );

  app.delete<{ Params: { venueId: string; staffId: string } }>(
    '/host/venues/:venueId/staff/:staffId',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: "Take a member off the venue's team (owners): every session of theirs ends; 409 LAST_OWNER for the last owner",
        params: pathParams('venueId', 'staffId'),
        response: { 204: { type: 'null' }, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeMember(db, request.params.venueId, request.params.staffId, tell);
      return reply.status(204).send();
    },
  );

  app.delete<{ Params: { venueId: string; staffId: string } }>(
    '/host/venues/:venueId/staff/:staffId/sessions',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['team'],
        summary: 'End every session of a member (owners): they sign in again',
        params: pathParams('venueId', 'staffId'),
        response: { 200: EndedSessionsResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => endMemberSessions(db, request.params.venueId, request.params.staffId, tell),
  );

  app.post<{ Body: ChangePasswordBody }>(
    '/host/password',
    {
      config: passwordRateLimit,
      schema: {
        tags: ['team'],
        summary: 'Change your own password: the current one first (403 WRONG_PASSWORD); your other sessions end',
        body: ChangePasswordBody,
        response: { 200: EndedSessionsResponse, ...errors(401, 403, 422, 429) },
      },
      // The session before the body: a stranger learns nothing about what a valid request looks like.
      preValidation: async (request) => void (await requireStaff(db, request, now())),
    },
    async (request) => {
      const identity = await requireStaff(db, request, now());
      return changeOwnPassword(
        db.kysely,
        options.limiter,
        identity,
        readSessionToken(request, 'staff') ?? '',
        request.body,
        request.ip,
        tell,
      );
    },
  );

  app.get<{ Params: { token: string } }>(
    '/host/invites/:token',
    {
      config: passwordRateLimit,
      schema: {
        tags: ['team'],
        summary:
          'What an invitation link is for: the venue, the email, whether it has an account (404 unknown; 410 used, expired, or its sender may no longer invite)',
        params: pathParams('token'),
        response: { 200: InviteInfoResponse, ...errors(404, 410, 429) },
      },
    },
    async (request) => readInvite(db.kysely, request.params.token, now()),
  );

  app.post<{ Params: { token: string }; Body: AcceptInviteBody }>(
    '/host/invites/:token/accept',
    {
      config: passwordRateLimit,
      schema: {
        tags: ['team'],
        summary:
          "Accept an invitation: a new account's password, or the existing account's own (403 WRONG_PASSWORD); starts a session like a login",
        params: pathParams('token'),
        body: AcceptInviteBody,
        response: { 200: HostMeResponse, ...errors(403, 404, 410, 422, 429) },
      },
    },
    async (request, reply) => {
      const { session, me } = await acceptInvite(
        db.kysely,
        options.limiter,
        request.params.token,
        request.body.password,
        request.ip,
        now(),
        db.dialect,
      );
      setSessionCookie(reply, app.config, session.token, session.expiresAt);
      return me;
    },
  );
}
