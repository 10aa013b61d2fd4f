import {
  CancelBody,
  CreateWaitlistBody,
  CreateWaitlistResponse,
  ErrorCode,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  type Language,
  PositionResponse,
  ReplyBody,
  StatusResponse,
  WaitlistStatusesResponse,
} from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { appSecret } from '../../db/app-keys.js';
import { joinAddressKey } from '../../lib/address-key.js';
import { AppError } from '../../lib/app-error.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { extraRateLimit } from '../../plugins/extra-rate-limit.js';
import { answerNoStore } from '../../plugins/no-store.js';
import { readSessionToken } from '../../plugins/sessions.js';
import {
  getPositionJson,
  getStatus,
  getWaitlistStatuses,
  joinKeyOf,
  joinWaitlistOnce,
  leaveWaitlist,
  replyFromPage,
} from '../queue/index.js';
import { isVenueStaffRequest } from '../staff/staff-auth.js';

/** The diner's routes: a thin HTTP layer over the queue (modules/queue). */

/** The page's language; anything else reads as the default (Portuguese). */
const PositionQuery = z.object({ lng: z.optional(z.string()) });
const languageOf = (lng: string | undefined): Language => (lng === 'en' ? 'en' : 'pt');

/** The join's `Idempotency-Key` header (docs/product.md §3.9), if sent; a malformed one is a 422 naming it. */
function idempotencyKeyOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new AppError(
      ErrorCode.VALIDATION_FAILED,
      `${IDEMPOTENCY_KEY_HEADER} must be 8 to 128 characters of letters, digits, "_" and "-".`,
      IDEMPOTENCY_KEY_HEADER,
    );
  }
  return value;
}

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

export async function waitlistRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.queueDeps;
  answerNoStore(app);
  // Joins per venue and client address (docs/product.md §3), beside the route's limit per address: one
  // address cannot fill one venue's queue.
  const venueJoinLimit = extraRateLimit(app, {
    max: app.config.RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN,
    timeWindow: 600_000,
    keyGenerator: (request) => `${(request.params as { venueId?: string }).venueId ?? ''}|${request.ip}`,
  });

  // The key of the open parties' bound per client address (docs/decisions/026), the same on every instance.
  const addressSecret = appSecret(deps.db, 'join-address', deps.now);
  const maxOpen = app.config.JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE;

  app.post<{ Params: { venueId: string }; Body: CreateWaitlistBody }>(
    '/waitlists/:venueId/create',
    {
      config: { rateLimit: { max: app.config.RATE_LIMIT_JOINS_PER_10_MIN, timeWindow: 600_000 } },
      onRequest: venueJoinLimit,
      schema: {
        tags: ['waitlist'],
        summary: 'Join the waitlist',
        description:
          '201: a new entry and its `joinProof` (keep it). 200: a repeat join (same phone, entry still open) that sent the `joinProof` of the first join gets that entry. ' +
          "409 ALREADY_ON_WAITLIST: a repeat join without that proof; no id, and the position link goes again by SMS to the entry's phone (at most once a minute). " +
          "409 WAITLIST_FULL: the venue's cap of waiting parties (maxWaitingParties). " +
          '409 TOO_MANY_OPEN_FROM_ADDRESS: the client address has JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE open parties at the venue already (a browser with a staff session of the venue, its kiosk, is not counted). ' +
          "422 PHONE_COUNTRY_NOT_ALLOWED (field customer.phone): the phone is outside the venue's smsCountries. " +
          '429: joins per client address, and per venue and client address, per 10 minutes. ' +
          'Header `Idempotency-Key` (optional, 8-128 characters of A-Z a-z 0-9 _ -; 422 VALIDATION_FAILED naming it otherwise): one per join attempt, kept across its retries. ' +
          'A key whose join created an entry is answered with that first answer (same status and body) for 24 h, never a second entry; ' +
          'the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED.',
        params: pathParams('venueId'),
        body: CreateWaitlistBody,
        response: { 200: CreateWaitlistResponse, 201: CreateWaitlistResponse, ...errors(400, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { venueId } = request.params;
      const body = request.body;
      const key = idempotencyKeyOf(request.headers['idempotency-key']);
      if (body.venue !== venueId) throw new AppError(ErrorCode.INVALID_VENUE, undefined, 'venue');
      // The venue's own kiosk (a browser its staff logged in) is not bound per address (docs/decisions/026).
      const isKiosk = await isVenueStaffRequest(deps.db, request, venueId, deps.now());
      const answer = await joinWaitlistOnce(
        deps,
        venueId,
        { ...body, originLabel: body.origin.label },
        {
          context: { dinerSessionToken: readSessionToken(request, 'diner') },
          ...(isKiosk ? {} : { address: { key: joinAddressKey(await addressSecret(), venueId, request.ip), maxOpen } }),
          ...(key ? { idempotency: joinKeyOf(key, venueId, body) } : {}),
        },
      );
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.get<{ Params: { venueId: string } }>(
    '/waitlists/:venueId/waitlist-statuses',
    {
      schema: {
        tags: ['venues'],
        summary: 'Whether the waitlist is open, and the wait a party joining now would be quoted',
        description:
          '`currentWait` (docs/product.md §4) is there when the venue shows it (`showWaitBeforeJoin`, and positions not hidden), and the list is open; `estimatedTime` and `estimatedRange` once the venue has a pace or history (before that, `partiesAhead` alone).',
        params: pathParams('venueId'),
        response: { 200: WaitlistStatusesResponse, ...errors(400, 404) },
      },
    },
    async (request) => getWaitlistStatuses(deps, request.params.venueId),
  );

  app.get<{ Params: { waitlistId: string }; Querystring: z.infer<typeof PositionQuery> }>(
    '/waitlists/:waitlistId/position',
    {
      schema: {
        tags: ['waitlist'],
        summary: 'Where an entry stands (own id or read-only share id)',
        params: pathParams('waitlistId'),
        querystring: PositionQuery,
        response: { 200: PositionResponse, ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const json = await getPositionJson(deps, request.params.waitlistId, languageOf(request.query.lng));
      // Already serialised (and maybe kept from an earlier read): sent as it is.
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  app.get<{ Params: { waitlistId: string; venueId: string } }>(
    '/waitlists/:waitlistId/:venueId/status',
    {
      schema: {
        tags: ['waitlist'],
        summary: 'Call, seat and cancel times of an entry',
        params: pathParams('waitlistId', 'venueId'),
        response: { 200: StatusResponse, ...errors(400, 404) },
      },
    },
    async (request) => getStatus(deps, request.params.waitlistId, request.params.venueId),
  );

  app.put<{ Params: { waitlistId: string; venueId: string } }>(
    '/waitlists/:waitlistId/:venueId/cancel',
    {
      schema: {
        tags: ['waitlist'],
        summary: 'The diner leaves the waitlist (refused for a shared link)',
        params: pathParams('waitlistId', 'venueId'),
        body: CancelBody,
        response: { 200: StatusResponse, ...errors(400, 403, 404, 409, 422) },
      },
    },
    async (request) => leaveWaitlist(deps, request.params.waitlistId, request.params.venueId),
  );

  app.post<{ Params: { waitlistId: string; venueId: string }; Querystring: z.infer<typeof PositionQuery>; Body: ReplyBody }>(
    '/waitlists/:waitlistId/:venueId/reply',
    {
      config: { rateLimit: { max: 120, timeWindow: 600_000 } },
      schema: {
        tags: ['waitlist'],
        summary: "The party answers: on my way, I need more time (5, 10 or 15 min), I'm here (refused for a shared link)",
        description:
          'Answers the position answer, which carries `waitlist.reply`. 403 SHARED_LINK_READ_ONLY for a shared link; 409 ENTRY_NOT_ACTIVE once the party is no longer waiting or called. `needMoreTime` while called extends the hold window once.',
        params: pathParams('waitlistId', 'venueId'),
        querystring: PositionQuery,
        body: ReplyBody,
        response: { 200: PositionResponse, ...errors(400, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { waitlistId, venueId } = request.params;
      await replyFromPage(deps, waitlistId, venueId, request.body);
      const json = await getPositionJson(deps, waitlistId, languageOf(request.query.lng));
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}

/** The module's routes, under /api (app.ts registers every module the same way). */
export async function registerWaitlist(app: FastifyInstance): Promise<void> {
  await app.register(waitlistRoutes, { prefix: '/api' });
}
