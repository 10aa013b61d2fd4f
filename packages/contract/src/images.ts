import * as z from 'zod/mini';

/**
 * The answer to an image upload (POST /api/host/venues/{venueId}/images, multipart field `file`).
 * `path` is what a theme stores: clients show IMAGE_BASE_URL + path (+ `?quality=70&format=webp`).
 */
export const ImageUploadResponse = z.object({
  path: z.string(),
  contentType: z.string(),
  width: z.number(),
  height: z.number(),
  size: z.number(),
});
export type ImageUploadResponse = z.infer<typeof ImageUploadResponse>;

/** Formats the image host converts to with `?format=`. */
export const ImageOutputFormat = z.enum(['webp', 'avif', 'jpeg', 'png']);
export type ImageOutputFormat = z.infer<typeof ImageOutputFormat>;
