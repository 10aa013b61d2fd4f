import {
  HostCancelBody,
  HostCreateEntryBody,
  HostEntryPatch,
  HostEntryResponse,
  HostLoginBody,
  HostMeResponse,
  HostQueueResponse,
  HostSettingsResponse,
  StaffMessageBody,
  StaffMessageResponse,
  ThreadResponse,
  VenueSettingsPatch,
  WaitlistStateBody,
  WaitlistStateResponse,
} from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { answerNoStore } from '../../plugins/no-store.js';
import { refuseCrossSiteWrites } from '../../plugins/same-origin.js';
import { createLoginLimiter } from '../staff/login-limiter.js';
import { clearSessionCookie, ownerOfPathVenue, requireStaff, setSessionCookie, staffOfPathVenue } from '../staff/staff-auth.js';
import { getMe, login, logout } from '../staff/staff.service.js';
import { teamRoutes } from '../staff/team.routes.js';
import { hostExtrasRoutes } from './host-extras.routes.js';
import { getSettings, patchSettings } from './host-settings.service.js';
import {
  addWalkIn,
  callParty,
  cancelParty,
  editParty,
  findVenueEntry,
  getQueue,
  messageToParty,
  putWaitlistState,
  readThread,
  seatParty,
  sendAgain,
  staffEntryResponse,
} from '../queue/index.js';
import { pathParams } from '../../plugins/contract-schemas.js';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

/** The host API (docs/product.md §6): staff session cookie, 401 without it, 403 for other venues. */
export async function hostRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.queueDeps;
  const db = app.db;
  const loginWindowMs = 15 * 60_000;
  const limiter = createLoginLimiter(app.rateLimitStore, {
    freeFailures: app.config.LOGIN_MAX_PER_ACCOUNT_15_MIN,
    windowMs: loginWindowMs,
  });

  answerNoStore(app);
  // Every write under /host, login included (login CSRF), must come from our own pages.
  refuseCrossSiteWrites(app);

  // The queue's routes: a thin HTTP layer over modules/queue. The staff session is checked before
  // the request is parsed, so a stranger learns nothing about what a valid request looks like.
  const staffFirst = staffOfPathVenue(db, deps.now);

  app.post<{ Body: HostLoginBody }>(
    '/host/login',
    {
      // Every attempt counts against its client address, whatever the account (docs/security.md);
      // wrong passwords also slow their account and address down (staff/login-limiter.ts).
      config: { rateLimit: { max: app.config.LOGIN_MAX_PER_ADDRESS_15_MIN, timeWindow: loginWindowMs } },
      schema: {
        tags: ['host'],
        summary: 'Start a staff session (cookie)',
        body: HostLoginBody,
        response: { 200: HostMeResponse, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      const session = await login(db.kysely, limiter, request.body, request.ip, deps.now());
      setSessionCookie(reply, app.config, session.token, session.expiresAt);
      return getMe(db.kysely, session.identity);
    },
  );

  app.post(
    '/host/logout',
    { schema: { tags: ['host'], summary: 'End the staff session', response: { 204: { type: 'null' }, ...errors(401, 403) } } },
    async (request, reply) => {
      const session = await requireStaff(db, request, deps.now());
      await logout(db.kysely, session, (news) => app.bus.publishStaffNews(news));
      clearSessionCookie(reply, app.config);
      return reply.status(204).send();
    },
  );

  app.get(
    '/host/me',
    {
      schema: {
        tags: ['host'],
        summary: 'The signed-in staff member and their venues',
        response: { 200: HostMeResponse, ...errors(401) },
      },
    },
    async (request) => getMe(db.kysely, await requireStaff(db, request, deps.now())),
  );

  app.get<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/entries',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'The live queue, in order, with personal data',
        params: pathParams('venueId'),
        response: { 200: HostQueueResponse, ...errors(400, 401, 403) },
      },
    },
    async (request) => getQueue(deps, request.params.venueId),
  );

  app.post<{ Params: { venueId: string }; Body: HostCreateEntryBody }>(
    '/host/venues/:venueId/entries',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Add a walk-in (origin Host); 200 when a repeat join returns the existing entry',
        params: pathParams('venueId'),
        body: HostCreateEntryBody,
        response: { 201: HostEntryResponse, 200: HostEntryResponse, ...errors(400, 401, 403, 409, 422) },
      },
    },
    async (request, reply) => {
      const answer = await addWalkIn(deps, request.params.venueId, request.body);
      return reply.status(answer.created ? 201 : 200).send(answer);
    },
  );

  const entryAction = (action: 'call' | 'seat', run: typeof callParty, summary: string) =>
    app.post<{ Params: { venueId: string; entryId: string } }>(
      `/host/venues/:venueId/entries/:entryId/${action}`,
      {
        preValidation: staffFirst,
        schema: {
          tags: ['host'],
          summary,
          params: pathParams('venueId', 'entryId'),
          // A call sends a message: 429 past the staff send bounds, 422 when the venue's text is past
          // the segment cap (docs/security.md).
          response: { 200: HostEntryResponse, ...errors(400, 401, 403, 404, 409, 422, 429) },
        },
      },
      async (request) => run(deps, request.params.venueId, request.params.entryId),
    );
  entryAction('call', callParty, 'Call the party: event call (and the SMS)');
  entryAction('seat', seatParty, 'Seat the party: event seat');

  app.post<{ Params: { venueId: string; entryId: string }; Body: HostCancelBody }>(
    '/host/venues/:venueId/entries/:entryId/cancel',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Take the party off: NoShow/Host publish cancel, Removed publishes remove',
        params: pathParams('venueId', 'entryId'),
        body: HostCancelBody,
        response: { 200: HostEntryResponse, ...errors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) => cancelParty(deps, request.params.venueId, request.params.entryId, request.body),
  );

  app.patch<{ Params: { venueId: string; entryId: string }; Body: HostEntryPatch }>(
    '/host/venues/:venueId/entries/:entryId',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Edit party size, note or priority: event update',
        params: pathParams('venueId', 'entryId'),
        body: HostEntryPatch,
        response: { 200: HostEntryResponse, ...errors(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request) => editParty(deps, request.params.venueId, request.params.entryId, request.body),
  );

  // The conversation with a party (docs/product.md §7).
  app.get<{ Params: { venueId: string; entryId: string } }>(
    '/host/venues/:venueId/entries/:entryId/messages',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: "The party's thread, both directions, oldest first; opening it marks the party's messages read",
        params: pathParams('venueId', 'entryId'),
        response: { 200: ThreadResponse, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => readThread(deps, await findVenueEntry(deps, request.params.venueId, request.params.entryId)),
  );

  app.post<{ Params: { venueId: string; entryId: string }; Body: StaffMessageBody }>(
    '/host/venues/:venueId/entries/:entryId/messages',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: "Write to the party (at most 480 characters): sent by the venue's channel and shown on the diner's page",
        params: pathParams('venueId', 'entryId'),
        body: StaffMessageBody,
        response: { 201: StaffMessageResponse, ...errors(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const entry = await findVenueEntry(deps, request.params.venueId, request.params.entryId);
      const message = await messageToParty(deps, entry, request.body.text.trim());
      return reply.status(201).send({ message });
    },
  );

  app.post<{ Params: { venueId: string; entryId: string; messageId: string } }>(
    '/host/venues/:venueId/entries/:entryId/messages/:messageId/resend',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Send a message to the party again (a failed delivery): a new message with the same text; never to a party that has ended',
        params: pathParams('venueId', 'entryId', 'messageId'),
        response: { 200: HostEntryResponse, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const entry = await findVenueEntry(deps, request.params.venueId, request.params.entryId);
      await sendAgain(deps, entry, request.params.messageId);
      return staffEntryResponse(deps, await findVenueEntry(deps, entry.venue_id, entry.id));
    },
  );

  app.put<{ Params: { venueId: string }; Body: { active: boolean; locked: boolean } }>(
    '/host/venues/:venueId/waitlist',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Open, lock or close the waitlist: event update',
        params: pathParams('venueId'),
        body: WaitlistStateBody,
        response: { 200: WaitlistStateResponse, ...errors(400, 401, 403, 422) },
      },
    },
    async (request) => putWaitlistState(deps, request.params.venueId, request.body),
  );

  app.get<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/settings',
    {
      preValidation: staffFirst,
      schema: {
        tags: ['host'],
        summary: 'Venue, settings and theme',
        params: pathParams('venueId'),
        response: { 200: HostSettingsResponse, ...errors(400, 401, 403) },
      },
    },
    async (request) => getSettings(deps, app.config, request.params.venueId),
  );

  // Settings, branding and message texts are the owners' (docs/decisions/023-staff-roles.md):
  // a host reads them (the console needs the venue's sections and theme) but 403 OWNER_ONLY here.
  app.patch<{ Params: { venueId: string }; Body: VenueSettingsPatch }>(
    '/host/venues/:venueId/settings',
    {
      preValidation: ownerOfPathVenue(db, deps.now),
      schema: {
        tags: ['host'],
        summary: 'Change venue, settings, theme and message texts (owners; 403 OWNER_ONLY for hosts): event update',
        params: pathParams('venueId'),
        body: VenueSettingsPatch,
        response: { 200: HostSettingsResponse, ...errors(400, 401, 403, 422) },
      },
    },
    async (request) => patchSettings(deps, app.config, request.params.venueId, request.body),
  );

  await app.register(hostExtrasRoutes);
  await app.register(teamRoutes, { limiter, maxPerAddress: app.config.LOGIN_MAX_PER_ADDRESS_15_MIN, windowMs: loginWindowMs });
}

/** The host API and the team's routes, under /api (app.ts registers every module the same way). */
export async function registerHost(app: FastifyInstance): Promise<void> {
  await app.register(hostRoutes, { prefix: '/api' });
}
