import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerNoStore } from '../../plugins/no-store.js';
import { type StreamAccess, createRealtime } from './realtime.service.js';
import type { FanoutStrategy } from './fanout.js';

const sse = { 200: { description: 'text/event-stream (see packages/contract/src/realtime.ts)', type: 'string' } };
const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

/**
 * Server-Sent Events (docs/decisions/002-realtime-sse.md). Errors (bad id, no session) answer
 * JSON before the stream starts; once it starts, the reply is ours (hijacked), uncompressed.
 */
export interface RealtimeRoutesOptions {
  /**
   * Refuses a request without a session of the path venue's staff (401/403), else answers that
   * session's access, watched while the stream lives: the app hands in the staff module's guard.
   */
  staffGuard: (request: FastifyRequest) => Promise<StreamAccess>;
  /** How the fan-out writes (fanout.ts); none: the production way. Only bench/ passes another. */
  fanout?: FanoutStrategy;
}

/** Streams are transport: this module knows the queue and venues, and gets the staff check from the app. */
export async function realtimeRoutes(app: FastifyInstance, options: RealtimeRoutesOptions): Promise<void> {
  const realtime = createRealtime(app.queueDeps, app.bus, {
    onStreams: (kind, change) => (change > 0 ? app.metrics.streamOpened(kind) : app.metrics.streamClosed(kind)),
    heartbeatMs: app.config.SSE_HEARTBEAT_SECONDS * 1000,
    limits: { perEntry: app.config.SSE_MAX_STREAMS_PER_ENTRY, perAddress: app.config.SSE_MAX_STREAMS_PER_ADDRESS },
    onError: (error) => app.reporter.report(error, { module: 'realtime' }),
    ...(options.fanout ? { fanout: options.fanout } : {}),
  });
  // On SIGTERM the streams move first, while the instance still serves (plugins/drain.ts); open
  // streams would also hold app.close() forever.
  app.drain.onStart(() => realtime.closeAll());
  app.addHook('preClose', async () => realtime.closeAll());
  answerNoStore(app);

  app.get<{ Params: { waitlistId: string }; Querystring: { lng?: string } }>(
    '/waitlists/:waitlistId/events',
    {
      schema: {
        tags: ['realtime'],
        summary: "A diner's stream: `position` messages with the entry's own position (own id or share id)",
        params: { type: 'object', properties: { waitlistId: { type: 'string' } } },
        querystring: { type: 'object', properties: { lng: { type: 'string', enum: ['pt', 'en'] } } },
        response: { ...sse, ...errors(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const target = await realtime.resolveDiner(request.params.waitlistId);
      // Streams per entry and per address are capped (docs/security.md): 429 before the stream starts.
      const slot = realtime.admit(request.ip, target.entryId);
      reply.hijack();
      realtime.openDinerStream(reply.raw, target, request.query.lng === 'en' ? 'en' : 'pt', slot);
    },
  );

  app.get<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/events',
    {
      schema: {
        tags: ['realtime'],
        summary: "A host console's stream: `queue` messages with the whole live queue (staff cookie)",
        params: { type: 'object', properties: { venueId: { type: 'string' } } },
        response: { ...sse, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const access = await options.staffGuard(request);
      let slot;
      try {
        slot = realtime.admit(request.ip);
      } catch (error) {
        access.release();
        throw error;
      }
      reply.hijack();
      realtime.openHostStream(reply.raw, request.params.venueId, slot, access);
    },
  );
}

/** The streams, under /api; the staff check comes from the app (app.ts registers every module the same way). */
export async function registerRealtime(app: FastifyInstance, options: RealtimeRoutesOptions): Promise<void> {
  await app.register(realtimeRoutes, { prefix: '/api', ...options });
}
