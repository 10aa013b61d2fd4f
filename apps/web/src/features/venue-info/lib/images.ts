import { IMAGE_FORMAT, IMAGE_QUALITY, type ThemeResponse } from '@vez/contract';

/** An image path counts only when non-empty and not the text 'undefined' (spec section 4). */
export function isImagePresent(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.trim() !== '' && path.trim() !== 'undefined';
}

/** Image host + path + `?quality=70&format=webp` (spec section 3); absolute URLs keep their host. */
export function imageUrl(imageBaseUrl: string, path: string): string {
  const query = `quality=${IMAGE_QUALITY}&format=${IMAGE_FORMAT}`;
  const base = /^https?:\/\//.test(path) ? path : `${imageBaseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}

export function imageOrPlaceholder(imageBaseUrl: string, path: string | undefined, placeholder: string): string {
  return isImagePresent(path) ? imageUrl(imageBaseUrl, path) : placeholder;
}

/**
 * The header images by spotlight type (spec section 4): inspirational uses its small and large
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
