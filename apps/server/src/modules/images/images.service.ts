import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@vez/contract';
import type { Kysely } from 'kysely';
import sharp, { type Metadata, type Sharp } from 'sharp';
import type { Database } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { findVenueById } from '../venues/venues.service.js';
import { assertVenueId } from '../venues/venues.service.js';
import { extByContentType } from './image-formats.js';
import { deleteVenueImage, insertImage, listVenueImages, venueImageUsage } from './images.repository.js';
import { ConvertTimeoutError, sharpGate } from './sharp-gate.js';
import { rasteriseSvg } from './svg-raster.js';

export const MAX_UPLOAD_SIDE = 6000;
/** What an upload may be, by its bytes (never by the name or type the browser declared). */
const ACCEPTED = ['png', 'jpeg', 'webp', 'gif', 'svg'] as const;
const ACCEPTED_TEXT = 'PNG, JPEG, WebP, GIF or SVG';
/** SVG uploads become PNG this wide at most: a raster keeps any script or link in the SVG out. */
const SVG_RASTER_MAX_SIDE = 2000;
/** An SVG logo is a few KB: more text is more parsing and drawing work than any logo needs. */
export const MAX_SVG_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 5;

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
  /** IMAGE_CONVERT_TIMEOUT_SECONDS: decoding longer than this is refused (422); 5 when not given. */
  timeoutSeconds?: number;
  now?: number;
  /** The venue's quota (IMAGE_MAX_PER_VENUE, IMAGE_MAX_BYTES_PER_VENUE); none when not given. */
  quota?: { count: number; bytes: number };
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/** Text that starts like XML or SVG (after a byte-order mark and white space). */
const looksLikeSvg = (buffer: Buffer) => /^(\uFEFF)?\s*<(\?xml|svg|!--|!doctype)/i.test(buffer.subarray(0, 256).toString('utf8'));

/**
 * An SVG is checked as text before any parser sees it (docs/security.md): plain (not gzip), at
 * most MAX_SVG_BYTES, and no DOCTYPE (entity declarations, the "billion laughs", external entities).
 */
function assertSafeSvgText(buffer: Buffer): void {
  // librsvg would inflate a gzip-compressed SVG (svgz) past every check below; no raster format starts so.
  if (buffer[0] === 0x1f && buffer[1] === 0x8b) {
    throw new AppError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'Compressed files (such as .svgz) are not accepted: upload the plain SVG.',
      'file',
    );
  }
  if (!looksLikeSvg(buffer)) return;
  if (buffer.length > MAX_SVG_BYTES) {
    throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `An SVG may be at most ${formatMb(MAX_SVG_BYTES)}.`, 'file');
  }
  if (/<!doctype|<!entity/i.test(buffer.toString('utf8'))) {
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'SVG files with a DOCTYPE or entity declarations are not accepted.', 'file');
  }
}

const tooSlow = (seconds: number) =>
  new AppError(
    ErrorCode.VALIDATION_FAILED,
    `The image took longer than ${seconds} s to process. Upload a smaller or simpler image.`,
    'file',
  );

async function readMetadata(buffer: Buffer, declaredType: string, timeoutMs: number): Promise<Metadata> {
  const unsupported = new AppError(
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    `The file${declaredType ? ` (${declaredType})` : ''} is not a ${ACCEPTED_TEXT} image.`,
  );
  try {
    // Headers only for rasters (no pixel limit yet: the size check below answers 413 with the
    // figures); an SVG is parsed whole, so it is bounded like the rest.
    const meta = await sharpGate.run(() => sharp(buffer, { limitInputPixels: false }).metadata(), timeoutMs);
    if (!(ACCEPTED as readonly string[]).includes(meta.format)) throw unsupported;
    return meta;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof ConvertTimeoutError) throw tooSlow(Math.round(timeoutMs / 1000));
    throw unsupported; // sharp could not read it as any image
  }
}

/** Re-encodes the upload: orientation applied, metadata (EXIF, GPS, comments) dropped, SVG rasterised. */
async function normalise(
  buffer: Buffer,
  meta: Metadata,
  timeoutMs: number,
): Promise<{ data: Buffer; format: string; width: number; height: number }> {
  const limitInputPixels = MAX_UPLOAD_SIDE * MAX_UPLOAD_SIDE;
  if (meta.format === 'svg') {
    const longest = Math.max(meta.width, meta.height, 1);
    const density = Math.min(72 * 2, (72 * SVG_RASTER_MAX_SIDE) / longest);
    // In a process of its own, killed at the deadline (svg-raster.ts).
    const data = await sharpGate.run(() => rasteriseSvg(buffer, density, limitInputPixels, timeoutMs), timeoutMs);
    const info = await sharp(data).metadata();
    return { data, format: 'png', width: info.width, height: info.height };
  }
  let pipeline: Sharp;
  if (meta.format === 'gif') {
    pipeline = sharp(buffer, { animated: true, limitInputPixels }).gif();
  } else if (meta.format === 'jpeg') {
    pipeline = sharp(buffer, { limitInputPixels }).rotate().jpeg({ quality: 90, mozjpeg: true });
  } else if (meta.format === 'webp') {
    pipeline = sharp(buffer, { animated: true, limitInputPixels }).rotate().webp({ quality: 90 });
  } else {
    pipeline = sharp(buffer, { limitInputPixels }).rotate().png({ compressionLevel: 9 });
  }
  // sharp stops decoding at its timeout; the gate answers at the deadline whatever happens.
  pipeline = pipeline.timeout({ seconds: Math.max(1, Math.round(timeoutMs / 1000)) });
  const { data, info } = await sharpGate.run(() => pipeline.toBuffer({ resolveWithObject: true }), timeoutMs);
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
  // A full quota is refused before any decoding work, and checked again with the stored size.
  if (options.quota) await assertWithinQuota(db, venueId, options.quota, 0, options.now ?? Date.now(), false);
  const timeoutMs = (options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
  assertSafeSvgText(buffer);
  const meta = await readMetadata(buffer, declaredType, timeoutMs);
  const height = meta.pageHeight ?? meta.height;
  if (meta.width > MAX_UPLOAD_SIDE || height > MAX_UPLOAD_SIDE) {
    throw new AppError(
      ErrorCode.PAYLOAD_TOO_LARGE,
      `The image is ${meta.width}×${height} pixels; the most is ${MAX_UPLOAD_SIDE}×${MAX_UPLOAD_SIDE}.`,
      'file',
    );
  }
  const out = await normalise(buffer, meta, timeoutMs).catch((error: unknown) => {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : '';
    if (error instanceof ConvertTimeoutError || /^timeout/i.test(message)) throw tooSlow(timeoutMs / 1000);
    // The header read fine but the pixels did not: bad input, never a 500.
    if (/pixel limit/i.test(message)) {
      throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The image has too many pixels (all frames together).', 'file');
    }
    throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The image could not be read: the file is damaged or incomplete.', 'file');
  });
  const contentType = `image/${out.format}`;
  const ext = extByContentType[contentType];
  if (!ext) throw new Error(`sharp produced an unexpected format: ${out.format}`);
  if (options.quota) await assertWithinQuota(db, venueId, options.quota, out.data.length, options.now ?? Date.now(), true);
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

/**
 * 409 IMAGE_QUOTA_EXCEEDED, naming the limit, when one more image of `size` bytes would pass the
 * venue's quota (docs/decisions/026). Two uploads at the same instant may each pass it by one: the
 * uploaders are the venue's own owners, and the next upload is refused. With `free`, uploads the
 * venue no longer shows make room first.
 */
async function assertWithinQuota(
  db: Kysely<Database>,
  venueId: string,
  quota: { count: number; bytes: number },
  size: number,
  now: number,
  free: boolean,
) {
  let used = await venueImageUsage(db, venueId);
  if (used.count >= quota.count || used.bytes + size > quota.bytes)
    used = await freeUnusedImages(db, venueId, { quota, size, now, used, free });
  if (used.count >= quota.count) {
    throw new AppError(
      ErrorCode.IMAGE_QUOTA_EXCEEDED,
      `This venue has ${used.count} images stored; the most is ${quota.count}. Images the venue no longer shows make room an hour after their upload.`,
      'file',
    );
  }
  if (used.bytes + size > quota.bytes) {
    throw new AppError(
      ErrorCode.IMAGE_QUOTA_EXCEEDED,
      `This venue's images take ${formatMb(used.bytes)}${size ? `, and this one ${formatMb(size)} more` : ''}; the most is ${formatMb(quota.bytes)}. Images the venue no longer shows make room an hour after their upload.`,
      'file',
    );
  }
}

/** An upload this young may be one the owner is about to save in the settings: never freed for another. */
const UNSAVED_UPLOAD_MS = 60 * 60_000;

/**
 * Makes room for an upload at the quota with the venue's oldest uploads that nothing of the venue
 * shows any more (a logo or cover since replaced), so an owner who changes the logo every week is
 * never stuck (docs/decisions/026). An upload of the last hour is kept: it may not be saved yet.
 */
async function freeUnusedImages(
  db: Kysely<Database>,
  venueId: string,
  want: { quota: { count: number; bytes: number }; size: number; now: number; used: { count: number; bytes: number }; free: boolean },
): Promise<{ count: number; bytes: number }> {
  const { quota, size, now } = want;
  const venue = JSON.stringify((await findVenueById(db, venueId)) ?? {});
  let left = want.used;
  for (const image of await listVenueImages(db, venueId)) {
    if (left.count < quota.count && left.bytes + size <= quota.bytes) break;
    if (image.created_at > now - UNSAVED_UPLOAD_MS || venue.includes(image.id)) continue;
    // Before the upload is decoded, only counted: nothing goes for a file that turns out bad.
    if (!want.free || (await deleteVenueImage(db, venueId, image.id))) left = { count: left.count - 1, bytes: left.bytes - image.size };
  }
  return left;
}

/** Deletes one of the venue's uploaded images (by the id in its `/uploads/<id>.<ext>` path); 404 when it has none such. */
export async function removeVenueImage(db: Kysely<Database>, venueId: string, imageId: string): Promise<void> {
  if (!(await deleteVenueImage(db, venueId, imageId))) throw new AppError(ErrorCode.NOT_FOUND, 'This venue has no such image.');
}

function formatMb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
