import multipart from '@fastify/multipart';
import { ErrorCode, ImageUploadResponse } from '@vez/contract';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { imageHostRoutes } from './image-host.routes.js';
import { pathParams } from '../../plugins/contract-schemas.js';
import { refuseCrossSiteWrites } from '../../plugins/same-origin.js';
import { removeVenueImage, storeVenueImage } from './images.service.js';

export interface ImageUploadRoutesOptions {
  /**
   * The staff guard for /host/venues/:venueId/*: it must refuse anyone who is not staff of that
   * venue. It runs before the request is parsed. Without one, the route refuses every request
   * (401) rather than accept anonymous uploads.
   */
  guard?: preValidationAsyncHookHandler;
  /** The app's clock: an upload's time decides when it may make room for another (images.service.ts). */
  now?: () => number;
}

const refuseWithoutGuard: preValidationAsyncHookHandler = async () => {
  throw new AppError(ErrorCode.UNAUTHENTICATED);
};

const errors = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, { $ref: 'ApiError#' }]));

/**
 * A body that says multipart but is not (no boundary, cut short, a broken part header): the
 * parser throws plain errors for these; they are the client's, a 400, never a 500.
 */
function asMalformedUpload(error: unknown): unknown {
  const isParserError =
    error instanceof Error && !(error instanceof AppError) && (error as { statusCode?: unknown }).statusCode === undefined;
  return isParserError && /multipart|boundary|part header/i.test(error.message)
    ? new AppError(ErrorCode.MALFORMED_REQUEST, 'The upload is not valid multipart/form-data.', 'file')
    : error;
}

async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ buffer: Buffer; mimetype: string }> {
  if (!request.isMultipart()) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the image as multipart/form-data, in a field named file.');
  }
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 5 } }).catch((error: unknown) => {
    throw asMalformedUpload(error);
  });
  if (!part || part.fieldname !== 'file')
    throw new AppError(ErrorCode.VALIDATION_FAILED, 'Attach the image in a field named file.', 'file');
  try {
    return { buffer: await part.toBuffer(), mimetype: part.mimetype };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The image is larger than ${Math.round(maxBytes / 1024 / 102.4) / 10} MB.`, 'file');
    }
    throw asMalformedUpload(error);
  }
}

/** POST /host/venues/:venueId/images (under /api): staff upload a logo, background or banner. */
export async function imageUploadRoutes(app: FastifyInstance, options: ImageUploadRoutesOptions): Promise<void> {
  const maxBytes = app.config.IMAGE_MAX_UPLOAD_BYTES;
  // A staff cookie writes here: only from our own pages, like every host write.
  refuseCrossSiteWrites(app);
  // Registered in this scope only: the rest of the API keeps its 64 KB JSON body limit.
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1 } });

  app.post<{ Params: { venueId: string } }>(
    '/host/venues/:venueId/images',
    {
      preValidation: options.guard ?? refuseWithoutGuard,
      schema: {
        tags: ['host'],
        summary: 'Upload a venue image (multipart field `file`: PNG, JPEG, WebP, GIF or SVG; SVG is stored as PNG)',
        params: pathParams('venueId'),
        description:
          "409 IMAGE_QUOTA_EXCEEDED: the venue's images would pass IMAGE_MAX_PER_VENUE or IMAGE_MAX_BYTES_PER_VENUE (the message names the limit); delete one first.",
        response: { 201: ImageUploadResponse, ...errors(400, 401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { buffer, mimetype } = await readUpload(request, maxBytes);
      const stored = await storeVenueImage(app.db.kysely, request.params.venueId, buffer, mimetype, {
        maxBytes,
        timeoutSeconds: app.config.IMAGE_CONVERT_TIMEOUT_SECONDS,
        quota: { count: app.config.IMAGE_MAX_PER_VENUE, bytes: app.config.IMAGE_MAX_BYTES_PER_VENUE },
        now: (options.now ?? Date.now)(),
      });
      const body: ImageUploadResponse = {
        path: stored.path,
        contentType: stored.contentType,
        width: stored.width,
        height: stored.height,
        size: stored.size,
      };
      return reply.status(201).send(body);
    },
  );

  app.delete<{ Params: { venueId: string; imageId: string } }>(
    '/host/venues/:venueId/images/:imageId',
    {
      preValidation: options.guard ?? refuseWithoutGuard,
      schema: {
        tags: ['host'],
        summary:
          "Delete one of the venue's uploaded images (owners), by the id of its /uploads/<id>.<ext> path: frees its place in the quota",
        params: pathParams('venueId', 'imageId'),
        response: { 204: { type: 'null' }, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await removeVenueImage(app.db.kysely, request.params.venueId, request.params.imageId);
      return reply.status(204).send();
    },
  );
}

/**
 * Uploads under /api (branding is an owner's: the app hands in the owner guard, docs/decisions/023-staff-roles.md)
 * and the image host at /images (app.ts registers every module the same way).
 */
export async function registerImages(app: FastifyInstance, options: ImageUploadRoutesOptions): Promise<void> {
  await app.register(imageUploadRoutes, { prefix: '/api', ...options });
  await app.register(imageHostRoutes);
}
