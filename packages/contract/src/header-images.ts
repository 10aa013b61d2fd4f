import { IMAGE_FORMAT, IMAGE_QUALITY } from './constants.js';
import type { ThemeResponse } from './venue.js';

/** An image path counts only when non-empty and not the text 'undefined' (docs/product.md §14). */
export function isImagePresent(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.trim() !== '' && path.trim() !== 'undefined';
}

/** Image host + path + `?quality=70&format=webp` (docs/product.md §13); absolute URLs keep their host. */
export function imageUrl(imageBaseUrl: string, path: string): string {
  const query = `quality=${IMAGE_QUALITY}&format=${IMAGE_FORMAT}`;
  const base = /^https?:\/\//.test(path) ? path : `${imageBaseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

export function imageOrPlaceholder(imageBaseUrl: string, path: string | undefined, placeholder: string): string {
  return isImagePresent(path) ? imageUrl(imageBaseUrl, path) : placeholder;
}

/**
 * The header images by spotlight type (docs/product.md §14): inspirational uses its small and large
 * images; banners uses one random active banner for both; anything else the placeholder.
 */
export function spotlightImages(
  theme: Pick<ThemeResponse, 'typeImageSpotlight' | 'inspirationalImage' | 'banners'>,
  imageBaseUrl: string,
  placeholder: string,
  random: () => number = Math.random,
): { small: string; large: string } {
  if (theme.typeImageSpotlight === 'inspirational') {
    return {
      small: imageOrPlaceholder(imageBaseUrl, theme.inspirationalImage.small, placeholder),
      large: imageOrPlaceholder(imageBaseUrl, theme.inspirationalImage.large, placeholder),
    };
  }
  if (theme.typeImageSpotlight === 'banners') {
    const active = theme.banners.list.filter((banner) => banner.isActive);
    const banner = active[Math.floor(random() * active.length)];
    const url = imageOrPlaceholder(imageBaseUrl, banner?.imageUrl, placeholder);
    return { small: url, large: url };
  }
  return { small: placeholder, large: placeholder };
}

/** Widths the header image is offered at: phones (1x–2x), tablets, desktop (the header stops at 960px). */
export const HEADER_IMAGE_WIDTHS = [480, 800, 1200] as const;
/** The header's rendered width: the viewport, at most the 960px column. */
export const HEADER_IMAGE_SIZES = '(min-width: 960px) 960px, 100vw';
/** From this viewport width on, the header shows the large spotlight image. */
export const HEADER_WIDE_MEDIA = '(min-width: 768px)';

/** The header image's `src` and `srcset`: width variants only for image-host URLs (not the bundled placeholder). */
export function responsiveImage(url: string): { src: string; srcSet?: string } {
  if (!url.endsWith(`format=${IMAGE_FORMAT}`)) return { src: url };
  const at = (width: number) => `${url}&w=${width}`;
  return { src: at(800), srcSet: HEADER_IMAGE_WIDTHS.map((width) => `${at(width)} ${width}w`).join(', ') };
}

/**
 * The boot screen's header image (the page the server sends before any script runs). The server
 * picks the spotlight, random banner included, and marks the image with the venue and both
 * sizes; the client adopts that pick, so the boot screen and the page show one image, fetched once.
 */
export const BOOT_IMAGE_CLASS = 'boot__image';
export interface BootSpotlight {
  venueId: string;
  small: string;
  large: string;
}
