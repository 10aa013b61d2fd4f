import { createHash } from 'node:crypto';
import { ErrorCode } from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { ByteLru } from './byte-lru.js';
import { bundledImagesDir, findBundledImage, readBundledImage } from './bundled-images.js';
import { type ConvertOptions, type ImageBytes, convertImage, optionsKey } from './image-convert.js';
import { extByContentType } from './image-formats.js';
import { snapQuality, snapWidth } from './image-variants.js';
import { findImageById } from './images.repository.js';
import { ConvertTimeoutError, sharpGate } from './sharp-gate.js';

export interface ServedImage extends ImageBytes {
  /** Strong validator: a hash of exactly these bytes. */
  etag: string;
  cacheControl: string;
  /** An SVG sent as it is: the route adds a CSP that keeps any markup in it inert. */
  isRawSvg: boolean;
}

export interface ImageHost {
  /**
   * The image at `relative` (below /images/), converted as asked; throws NOT_FOUND. Before a real
   * conversion (a cache miss) it awaits `countConversion`, which throws 429 when the client has
   * spent its conversions.
   */
  serve(relative: string, options: ConvertOptions, countConversion?: () => Promise<void>): Promise<ServedImage>;
  readonly cache: ByteLru<ServedImage>;
}

// Upload ids never change meaning, so their answers may be cached for good.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const ONE_DAY = 'public, max-age=86400';
export const UPLOAD_PATH = /^uploads\/([A-Za-z0-9_-]{22})\.([a-z]{3,4})$/;

const notFound = () => new AppError(ErrorCode.NOT_FOUND, 'Image not found.');
const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

export function createImageHost(
  db: Kysely<Database>,
  options: { cacheBytes?: number; root?: string; maxPending?: number; timeoutSeconds?: number } = {},
): ImageHost {
  const cache = new ByteLru<ServedImage>(options.cacheBytes ?? 32 * 1024 * 1024);
  // Concurrent requests for the same missing variant share one conversion.
  const pending = new Map<string, Promise<ServedImage>>();
  const root = options.root ?? bundledImagesDir;
  // Bounds the conversion queue: a flood of distinct variants gets 429s instead of piling up work.
  const maxPending = options.maxPending ?? 16;
  const timeoutSeconds = options.timeoutSeconds ?? 5;

  async function produce(source: ImageBytes, convert: ConvertOptions, cacheControl: string): Promise<ServedImage> {
    const converted = await sharpGate
      .run(() => convertImage(source, convert, timeoutSeconds), timeoutSeconds * 1000)
      .catch((error: unknown) => {
        if (error instanceof ConvertTimeoutError || (error instanceof Error && /^timeout/i.test(error.message))) {
          throw new AppError(ErrorCode.VALIDATION_FAILED, 'This image cannot be converted in time. Ask for it in another width or format.');
        }
        throw error;
      });
    const out = converted ?? source;
    return { ...out, etag: etagOf(out.bytes), cacheControl, isRawSvg: !converted && out.contentType === 'image/svg+xml' };
  }

  async function locate(relative: string): Promise<{ key: string; load: () => Promise<ImageBytes>; cacheControl: string }> {
    const upload = UPLOAD_PATH.exec(relative);
    if (upload) {
      const [, id, ext] = upload as unknown as [string, string, string];
      return {
        key: `u:${id}.${ext}`,
        cacheControl: IMMUTABLE,
        load: async () => {
          const row = await findImageById(db, id);
          if (!row || extByContentType[row.content_type] !== ext) throw notFound();
          return { bytes: row.bytes, contentType: row.content_type };
        },
      };
    }
    if (relative.startsWith('uploads/')) throw notFound();
    const found = await findBundledImage(relative, root);
    if (!found) throw notFound();
    return {
      key: `b:${relative}:${found.version}`,
      cacheControl: ONE_DAY,
      load: async () => ({ bytes: await readBundledImage(found), contentType: found.contentType }),
    };
  }

  return {
    cache,
    async serve(relative, convert, countConversion) {
      const source = await locate(relative);
      // Snapped here too (the route does already): the cache only ever holds allowed variants.
      if (convert.width !== undefined) convert = { ...convert, width: snapWidth(convert.width) };
      if (convert.quality !== undefined) convert = { ...convert, quality: snapQuality(convert.quality) };
      const key = `${source.key}|${optionsKey(convert)}`;
      const cached = cache.get(key);
      if (cached) return cached;
      let job = pending.get(key);
      if (!job) {
        if (pending.size >= maxPending) {
          throw new AppError(ErrorCode.RATE_LIMITED, 'The image host is busy. Please try again in a moment.', undefined, {
            'retry-after': '1',
          });
        }
        await countConversion?.();
        // Another request may have started this very conversion meanwhile: share it.
        const started = pending.get(key);
        if (started) return started;
        job = source
          .load()
          .then((bytes) => produce(bytes, convert, source.cacheControl))
          .then((served) => {
            cache.set(key, served);
            return served;
          })
          .finally(() => pending.delete(key));
        pending.set(key, job);
      }
      return job;
    },
  };
}
