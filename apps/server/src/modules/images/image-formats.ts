import type { ImageOutputFormat } from '@vez/contract';

/** The image formats the host knows: file extension, MIME type and sharp's format name. */
export const imageTypes = {
  svg: { contentType: 'image/svg+xml', sharp: 'svg' },
  png: { contentType: 'image/png', sharp: 'png' },
  jpg: { contentType: 'image/jpeg', sharp: 'jpeg' },
  jpeg: { contentType: 'image/jpeg', sharp: 'jpeg' },
  webp: { contentType: 'image/webp', sharp: 'webp' },
  gif: { contentType: 'image/gif', sharp: 'gif' },
  avif: { contentType: 'image/avif', sharp: 'heif' },
} as const;

export type ImageExt = keyof typeof imageTypes;

/** Formats a request may convert to (`?format=`). */
export const outputFormats = ['webp', 'avif', 'jpeg', 'png'] as const satisfies readonly ImageOutputFormat[];
export type OutputFormat = ImageOutputFormat;

export const outputContentType: Record<OutputFormat | 'gif', string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/** The extension an upload's URL carries, by its stored content type. */
export const extByContentType: Record<string, ImageExt> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

export function isImageExt(ext: string): ext is ImageExt {
  return Object.hasOwn(imageTypes, ext);
}
