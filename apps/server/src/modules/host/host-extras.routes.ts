import { HostEntryResponse, HostStatsQuery, HostStatsResponse } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { requireVenueStaff, staffOfPathVenue } from '../staff/staff-auth.js';
import { renderJoinQrSvg } from './host-poster.service.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { restoreParty } from '../queue/index.js';
import { getDayStats } from './host-stats.service.js';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));
const str = { type: 'string' };
const venueParams = { type: 'object', properties: { venueId: str } };

/**
 * Host routes the console needs beyond docs/product.md §6: undo, today's figures, the QR poster.
 * Registered inside hostRoutes, so its cross-site write guard covers them too.
 */
export async function hostExtrasRoutes(app: FastifyInstance): Promise<void> {
  const deps = app.queueDeps;
  const staffOf = (request: { params: { venueId: string } } & Parameters<typeof requireVenueStaff>[1]) =>
    requireVenueStaff(app.db, request, request.params.venueId, deps.now());

  app.post<{ Params: { venueId: string; entryId: string } }>(
    '/host/venues/:venueId/entries/:entryId/restore',
    {
      preValidation: async (request) => {
        await staffOf(request);
      },
      schema: {
        tags: ['host'],
        summary: 'Undo a seat or a staff removal within RESTORE_WINDOW_MS (60 s): event update',
        params: pathParams('venueId', 'entryId'),
        response: { 200: HostEntryResponse, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => restoreParty(deps, request.params.venueId, request.params.entryId),
  );

  app.get<{ Params: { venueId: string }; Querystring: HostStatsQuery }>(
    '/host/venues/:venueId/stats',
    {
      preValidation: staffOfPathVenue(app.db, deps.now),
      schema: {
        tags: ['host'],
        summary:
          "A day's figures: joined, seated, left, no-shows, median and p90 wait, waits by hour (`date`=YYYY-MM-DD, `tz`=minutes east of UTC)",
        params: pathParams('venueId'),
        querystring: HostStatsQuery,
        response: { 200: HostStatsResponse, ...errors(400, 401, 403, 422) },
      },
    },
    async (request) => getDayStats(deps, request.params.venueId, request.query, app.config.RETENTION_HOURS * 3_600_000),
  );

  app.get<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/poster.svg',
    {
      schema: {
        tags: ['host'],
        summary: "The QR code (SVG) of the venue's join page, for the printable poster",
        params: venueParams,
        response: { 200: { description: 'image/svg+xml', type: 'string' }, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await staffOf(request);
      const svg = await renderJoinQrSvg(app.config.publicBaseUrl, request.params.venueId);
      return reply.type('image/svg+xml').header('cache-control', 'private, max-age=300').send(svg);
    },
  );
}
