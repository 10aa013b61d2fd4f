import { ErrorCode, PushKeyResponse, PushSubscribeBody } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { AppError } from '../../lib/app-error.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { findEntryAtVenue, isOpen } from '../queue/index.js';
import { removeSubscriptions, saveSubscription } from './push.js';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

/**
 * Browser push for a party (docs/product.md §8): the server's public key, and the subscription of
 * this browser for its own entry (a shared link may not). The server will call the URL a
 * subscription names: only the push services of PUSH_HOSTS, over https; any host in the demo alone,
 * whatever NODE_ENV says (docs/security.md, Safe defaults).
 */
export async function pushRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.queueDeps;
  const { config } = app;

  app.get(
    '/push/key',
    {
      schema: {
        tags: ['waitlist'],
        summary: "The server's VAPID public key for browser push",
        response: { 200: PushKeyResponse, 503: { $ref: 'ApiError#' } },
      },
    },
    async (_request, reply) => {
      const publicKey = await app.vapidPublicKey();
      if (publicKey) return { publicKey };
      return reply
        .status(503)
        .send({ statusCode: 503, code: ErrorCode.UNKNOWN_ERROR, message: 'Push is not available right now; try again.' });
    },
  );

  const ownOpenEntry = async (waitlistId: string, venueId: string) => {
    const found = await findEntryAtVenue(deps, waitlistId, venueId);
    if (found.isShared) throw new AppError(ErrorCode.SHARED_LINK_READ_ONLY);
    return found.entry;
  };

  app.post<{ Params: { waitlistId: string; venueId: string }; Body: PushSubscribeBody }>(
    '/waitlists/:waitlistId/:venueId/push',
    {
      config: { rateLimit: { max: 30, timeWindow: 600_000 } },
      schema: {
        tags: ['waitlist'],
        summary: 'Notify this phone: a call, getting close and staff messages arrive as notifications (own link only)',
        params: pathParams('waitlistId', 'venueId'),
        body: PushSubscribeBody,
        response: { 201: z.object({ subscribed: z.boolean() }), ...errors(400, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const entry = await ownOpenEntry(request.params.waitlistId, request.params.venueId);
      if (!isOpen(entry.status)) throw new AppError(ErrorCode.ENTRY_NOT_ACTIVE);
      const endpoint = new URL(request.body.subscription.endpoint);
      const allowed =
        config.DEMO ||
        (endpoint.protocol === 'https:' && config.PUSH_HOSTS.some((h) => endpoint.hostname === h || endpoint.hostname.endsWith(`.${h}`)));
      if (!allowed) throw new AppError(ErrorCode.VALIDATION_FAILED, 'This push service is not allowed.', 'subscription.endpoint');
      await saveSubscription(app.db, entry.id, request.body.subscription, deps.now());
      return reply.status(201).send({ subscribed: true });
    },
  );

  app.delete<{ Params: { waitlistId: string; venueId: string } }>(
    '/waitlists/:waitlistId/:venueId/push',
    {
      schema: {
        tags: ['waitlist'],
        summary: 'Stop notifying: removes the subscriptions of this entry (own link only)',
        params: pathParams('waitlistId', 'venueId'),
        response: { 200: z.object({ removed: z.number() }), ...errors(400, 403, 404) },
      },
    },
    async (request) => {
      const entry = await ownOpenEntry(request.params.waitlistId, request.params.venueId);
      return { removed: await removeSubscriptions(app.db, entry.id) };
    },
  );
}
