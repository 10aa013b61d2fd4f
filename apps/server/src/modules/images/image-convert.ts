import { ErrorCode } from '@vez/contract';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.js';
import { type OutputFormat, outputContentType, outputFormats } from './image-formats.js';
import { snapQuality, snapWidth } from './image-variants.js';

/** What `?quality=&format=&w=` asks for; every field optional. */
export interface ConvertOptions {
  quality?: number;
  format?: OutputFormat;
  width?: number;
}

export const MAX_OUTPUT_WIDTH = 2000;
/** Bounds decoding work for any input the host converts (uploads are already limited further). */
const MAX_INPUT_PIXELS = 40_000_000;
/** SVGs render at twice their intrinsic size by default, for sharp logos on dense screens. */
const SVG_DEFAULT_SCALE = 2;

const bad = (field: string, message: string) => new AppError(ErrorCode.MALFORMED_REQUEST, message, field);

function single(query: Record<string, unknown>, key: string): string | undefined {
  const value = query[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw bad(key, `Give ${key} once.`);
  return value;
}

function wholeNumber(query: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const raw = single(query, key);
  if (raw === undefined) return undefined;
  const n = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= min && n <= max)) throw bad(key, `${key} must be a whole number from ${min} to ${max}.`);
  return n;
}

/**
 * Reads the conversion query; a bad value is a 400 naming the parameter. Other keys are ignored.
 * Width and quality are snapped to the allowed set (image-variants.ts): a client cannot make the
 * host convert and cache a variant per number it invents.
 */
export function parseConvertOptions(query: Record<string, unknown>): ConvertOptions {
  const options: ConvertOptions = {};
  const quality = wholeNumber(query, 'quality', 1, 100);
  if (quality !== undefined) options.quality = snapQuality(quality);
  const width = wholeNumber(query, 'w', 1, MAX_OUTPUT_WIDTH);
  if (width !== undefined) options.width = snapWidth(width);
  const format = single(query, 'format');
  if (format !== undefined) {
    const normalised = format === 'jpg' ? 'jpeg' : format;
    if (!(outputFormats as readonly string[]).includes(normalised)) {
      throw bad('format', `format must be one of ${outputFormats.join(', ')}.`);
    }
    options.format = normalised as OutputFormat;
  }
  return options;
}

/** A stable text for the options, for cache keys. */
export function optionsKey(o: ConvertOptions): string {
  return `q=${o.quality ?? ''}&f=${o.format ?? ''}&w=${o.width ?? ''}`;
}

export interface ImageBytes {
  bytes: Buffer;
  contentType: string;
}

/**
 * Converts with sharp, or answers undefined when the source should be served as it is: no options
 * at all, or an SVG without a raster format asked for (quality and width mean nothing to a vector).
 * SVG is rasterised by librsvg, which runs no script and, reading from memory, loads no external file.
 */
export async function convertImage(source: ImageBytes, options: ConvertOptions, timeoutSeconds = 5): Promise<ImageBytes | undefined> {
  const isSvg = source.contentType === 'image/svg+xml';
  if (!options.format && (isSvg || (options.quality === undefined && options.width === undefined))) return undefined;
  const isGif = source.contentType === 'image/gif';
  const target: OutputFormat | 'gif' = options.format ?? sourceFormat(source.contentType);
  const animated = isGif && target === 'gif';

  let density: number | undefined;
  if (isSvg) {
    const meta = await sharp(source.bytes).metadata();
    const longest = Math.max(meta.width, meta.height, 1);
    const wanted = options.width ? (options.width / meta.width) * longest : longest * SVG_DEFAULT_SCALE;
    density = (72 * Math.min(wanted, MAX_OUTPUT_WIDTH)) / longest;
  }
  let pipeline = sharp(source.bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated, ...(density ? { density } : {}) }).rotate();
  if (options.width) pipeline = pipeline.resize({ width: options.width, withoutEnlargement: !isSvg });
  const q = options.quality;
  // Metadata (EXIF, ICC comments, GPS) is dropped: sharp writes none unless asked.
  switch (target) {
    case 'webp':
      pipeline = pipeline.webp({ quality: q ?? 80 });
      break;
    case 'avif':
      pipeline = pipeline.avif({ quality: q ?? 50, effort: 2 });
      break;
    case 'jpeg':
      pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: q ?? 80, mozjpeg: true });
      break;
    case 'png':
      // PNG is lossless: quality does not apply.
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
    case 'gif':
      pipeline = pipeline.gif();
      break;
  }
  // libvips stops at its next tile once the time is up (sharp-gate.ts answers at the deadline).
  return { bytes: await pipeline.timeout({ seconds: timeoutSeconds }).toBuffer(), contentType: outputContentType[target] };
}

function sourceFormat(contentType: string): OutputFormat | 'gif' {
  const found = (Object.entries(outputContentType) as [OutputFormat | 'gif', string][]).find(([, t]) => t === contentType);
  return found ? found[0] : 'png';
}
