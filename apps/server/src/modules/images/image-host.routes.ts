import type { FastifyInstance, FastifyReply } from 'fastify';
import { extraRateLimit } from '../../plugins/extra-rate-limit.js';
import { parseConvertOptions } from './image-convert.js';
import { type ServedImage, createImageHost } from './image-host.service.js';

/** True when If-None-Match names this entity tag (weak comparison, as RFC 9110 asks for GET). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function imageHeaders(reply: FastifyReply, image: ServedImage): void {
  reply.header('etag', image.etag);
  reply.header('cache-control', image.cacheControl);
  reply.header('x-content-type-options', 'nosniff');
  // Images are public and may be embedded by the diner client from another origin (IMAGE_BASE_URL).
  reply.header('cross-origin-resource-policy', 'cross-origin');
  // An SVG opened on its own is a document: no script, no external load, only its inline styles.
  if (image.isRawSvg) reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
}

/**
 * The image host (docs/product.md §1): GET /images/<path>, bundled files and uploads stored in the
 * database (/images/uploads/<id>.<ext>), converted on request with `?quality=&format=&w=`.
 */
export async function imageHostRoutes(app: FastifyInstance): Promise<void> {
  const host = createImageHost(app.db.kysely, { timeoutSeconds: app.config.IMAGE_CONVERT_TIMEOUT_SECONDS });
  // Conversions per client address (docs/security.md): only cache misses are counted.
  const conversionLimit = extraRateLimit(app, {
    max: app.config.IMAGE_CONVERSIONS_PER_ADDRESS_PER_MIN,
    timeWindow: 60_000,
    keyGenerator: (request) => request.ip,
    message: 'Too many image conversions from this address.',
  });

  app.get<{ Params: { '*': string }; Querystring: Record<string, unknown> }>(
    '/images/*',
    {
      // One representation per URL, so the strong ETag stays true; raster formats are compressed
      // already and the SVGs are a few KB.
      compress: false,
      schema: {
        tags: ['images'],
        summary:
          'An image: bundled or uploaded; ?quality=1..100&format=webp|avif|jpeg|png&w=1..2000 converts (w snapped up to 100, 200, 320, 480, 640, 800, 1200, 1600 or 2000; quality to the nearest of 30..90 by 10; conversions per address per minute are limited: 429)',
      },
    },
    async (request, reply) => {
      const options = parseConvertOptions(request.query ?? {});
      const image = await host.serve(request.params['*'], options, () => conversionLimit(request));
      imageHeaders(reply, image);
      if (matchesEtag(request.headers['if-none-match'], image.etag)) return reply.status(304).send();
      return reply.type(image.contentType).send(image.bytes);
    },
  );
}
