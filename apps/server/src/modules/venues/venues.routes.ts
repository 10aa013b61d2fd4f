import { PartySizesResponse, ThemeResponse, VenueResponse } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { asksForWhatsApp } from '../../config.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { getVenue, toPartySizesResponse, toThemeResponse, toVenueResponse } from './venues.service.js';

type VenueParams = { Params: { venueId: string } };
const venueParams = pathParams('venueId');
const errors = { 400: { $ref: 'ApiError#' }, 404: { $ref: 'ApiError#' } };

export async function venuesRoutes(app: FastifyInstance): Promise<void> {
  app.get<VenueParams>(
    '/venues/:venueId',
    { schema: { tags: ['venues'], summary: 'A venue', params: venueParams, response: { 200: VenueResponse, ...errors } } },
    async (request) =>
      toVenueResponse(
        await getVenue(app.db.kysely, request.params.venueId),
        app.config.SMART_LINK_BASE_URL,
        asksForWhatsApp(app.config.WHATSAPP_TEMPLATES),
      ),
  );

  app.get<VenueParams>(
    '/waitlists/:venueId/party-sizes',
    {
      schema: {
        tags: ['venues'],
        summary: 'Party sizes and sections',
        params: venueParams,
        response: { 200: PartySizesResponse, ...errors },
      },
    },
    async (request) => toPartySizesResponse(await getVenue(app.db.kysely, request.params.venueId)),
  );

  app.get<{ Params: { product: string; venueId: string } }>(
    '/themes/:product/:venueId',
    {
      schema: {
        tags: ['venues'],
        summary: 'The venue theme (product path segment: waitlist-api)',
        params: pathParams('product', 'venueId'),
        response: { 200: ThemeResponse, ...errors },
      },
    },
    async (request) => toThemeResponse(await getVenue(app.db.kysely, request.params.venueId)),
  );
}

/** The module's routes, under /api (app.ts registers every module the same way). */
export async function registerVenues(app: FastifyInstance): Promise<void> {
  await app.register(venuesRoutes, { prefix: '/api' });
}
