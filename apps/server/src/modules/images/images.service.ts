import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@vez/contract';
import type { Kysely } from 'kysely';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { Database } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { findVenueById } from '../venues/venues.repository.js';
import { assertVenueId } from '../venues/venues.service.js';
import { extByContentType } from './image-formats.js';
import { insertImage } from './images.repository.js';

export const MAX_UPLOAD_SIDE = 6000;
/** What an upload may be, by its bytes (never by the name or type the browser declared). */
const ACCEPTED = ['png', 'jpeg', 'webp', 'gif', 'svg'] as const;
const ACCEPTED_TEXT = 'PNG, JPEG, WebP, GIF or SVG';
/** SVG uploads become PNG this wide at most: a raster keeps any script or link in the SVG out. */
const SVG_RASTER_MAX_SIDE = 2000;

export interface StoredImage {
  id: string;
  /** What a theme stores: the client builds IMAGE_BASE_URL + path. */
  path: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
}

export interface StoreImageOptions {
  /** IMAGE_MAX_UPLOAD_BYTES; 5 MB when not given. */
  maxBytes?: number;
  now?: number;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

async function readMetadata(buffer: Buffer, declaredType: string): Promise<Metadata> {
  const unsupported = new AppError(
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    `The file${declaredType ? ` (${declaredType})` : ''} is not a ${ACCEPTED_TEXT} image.`,
  );
  try {
    const meta = await sharp(buffer).metadata();
    if (!(ACCEPTED as readonly string[]).includes(meta.format)) throw unsupported;
    return meta;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unsupported; // sharp could not read it as any image
  }
}

/** Re-encodes the upload: orientation applied, metadata (EXIF, GPS, comments) dropped, SVG rasterised. */
async function normalise(buffer: Buffer, meta: Metadata): Promise<{ data: Buffer; format: string; width: number; height: number }> {
  const limitInputPixels = MAX_UPLOAD_SIDE * MAX_UPLOAD_SIDE;
  let pipeline: Sharp;
  if (meta.format === 'svg') {
    const longest = Math.max(meta.width, meta.height, 1);
    const density = Math.min(72 * 2, (72 * SVG_RASTER_MAX_SIDE) / longest);
    pipeline = sharp(buffer, { density, limitInputPixels }).png({ compressionLevel: 9 });
  } else if (meta.format === 'gif') {
    pipeline = sharp(buffer, { animated: true, limitInputPixels }).gif();
  } else if (meta.format === 'jpeg') {
    pipeline = sharp(buffer, { limitInputPixels }).rotate().jpeg({ quality: 90, mozjpeg: true });
  } else if (meta.format === 'webp') {
    pipeline = sharp(buffer, { animated: true, limitInputPixels }).rotate().webp({ quality: 90 });
  } else {
    pipeline = sharp(buffer, { limitInputPixels }).rotate().png({ compressionLevel: 9 });
  }
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, format: info.format, width: info.width, height: info.pageHeight ?? info.height };
}

/**
 * Stores an image a venue's staff uploaded (logo, background, banner). Checks size, real type and
 * dimensions before any decoding work; answers 404 for an unknown venue, 413 too large, 415 not an image.
 */
export async function storeVenueImage(
  db: Kysely<Database>,
  venueId: string,
  buffer: Buffer,
  declaredType: string,
  options: StoreImageOptions = {},
): Promise<StoredImage> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  assertVenueId(venueId);
  if (buffer.length === 0) throw new AppError(ErrorCode.VALIDATION_FAILED, 'The file is empty.', 'file');
  if (buffer.length > maxBytes) {
    throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The image is larger than ${formatMb(maxBytes)}.`, 'file');
  }
  if (!(await findVenueById(db, venueId))) throw new AppError(ErrorCode.VENUE_INFO_NOT_FOUND);
  const meta = await readMetadata(buffer, declaredType);
  const height = meta.pageHeight ?? meta.height;
  if (meta.width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE) {
    throw new AppError(
      ErrorCode.PAYLOAD_TOO_LARGE,
      `The image is ${meta.width}×${height} pixels; the most is ${MAX_UPLOAD_SIDE}×${MAX_UPLOAD_SIDE}.`,
      'file',
    );
  }
  const out = await normalise(buffer, meta).catch((error: unknown) => {
    // The header read fine but the pixels did not: bad input, never a 500.
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) {
      throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The image has too many pixels (all frames together).', 'file');
    }
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The image could not be read: the file is damaged or incomplete.', 'file');
  });
  const contentType = `image/${out.format}`;
  const ext = extByContentType[contentType];
  if (!ext) throw new Error(`sharp produced an unexpected format: ${out.format}`);
  const id = randomBytes(16).toString('base64url');
  await insertImage(db, {
    id,
    venue_id: venueId,
    content_type: contentType,
    bytes: out.data,
    width: out.width,
    height: out.height,
    size: out.data.length,
    created_at: options.now ?? Date.now(),
  });
  return { id, path: `/uploads/${id}.${ext}`, contentType, width: out.width, height: out.height, size: out.data.length };
}

function formatMb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
