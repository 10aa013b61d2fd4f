import { BOOT_IMAGE_CLASS, type BootSpotlight, type ThemeResponse, imageUrl } from '@vez/contract';
import type { VenueInfo } from './venue-info';

/** The header image the server already shows on the boot screen for this venue, if it does. */
export function readBootSpotlight(venueId: string, root: ParentNode = document): BootSpotlight | undefined {
  const image = root.querySelector<HTMLImageElement>(`img.${BOOT_IMAGE_CLASS}`);
  const { venue, small, large } = image?.dataset ?? {};
  return venue === venueId && small && large ? { venueId, small, large } : undefined;
}

/** The boot screen's banner, when it is one of the theme's active banners (the server's random pick). */
export function bootBannerOf(
  theme: Pick<ThemeResponse, 'typeImageSpotlight' | 'banners'>,
  imageBaseUrl: string,
  boot: BootSpotlight | undefined,
) {
  if (!boot || theme.typeImageSpotlight !== 'banners' || boot.small !== boot.large) return undefined;
  const active = theme.banners.list.filter((banner) => banner.isActive).map((banner) => imageUrl(imageBaseUrl, banner.imageUrl));
  return active.includes(boot.small) ? { small: boot.small, large: boot.large } : undefined;
}

/** A session's kept venue info shows the banner of this page's boot screen, so the two never differ. */
export function withBootBanner(info: VenueInfo, boot: BootSpotlight | undefined): VenueInfo {
  if (!boot || info.typeImageSpotlight !== 'banners' || boot.small !== boot.large) return info;
  return { ...info, smallBackgroundImage: boot.small, largeBackgroundImage: boot.large };
}
