import { BOOT_IMAGE_CLASS, type BootSpotlight, type ThemeResponse, imageUrl } from '@vez/contract';
import type { VenueInfo } from './venue-info';

function bootImageOf(root: ParentNode): BootSpotlight | undefined {
  const image = root.querySelector<HTMLImageElement>(`img.${BOOT_IMAGE_CLASS}`);
  const { venue, small, large } = image?.dataset ?? {};
  return venue && small && large ? { venueId: venue, small, large } : undefined;
}

/** The boot screen's image and the page it came with, kept before React replaces the boot screen. */
let kept: { boot: BootSpotlight; pathname: string } | undefined;

/**
 * Keeps the boot screen's header image (main.tsx calls this before mounting): the page's first
 * screens go on showing it after React has replaced the boot screen, and the venue's data adopts it
 * even when it arrives later (the position page learns its venue from the position).
 */
export function keepBootSpotlight(root: ParentNode = document, pathname = window.location.pathname): void {
  const boot = bootImageOf(root);
  kept = boot && { boot, pathname };
}

/** The boot screen's image while the page it came with is on show (not after a navigation). */
export function keptBootSpotlight(): BootSpotlight | undefined {
  return kept && kept.pathname === window.location.pathname ? kept.boot : undefined;
}

/** The header image the server already shows on the boot screen for this venue, if it does. */
export function readBootSpotlight(venueId: string, root: ParentNode = document): BootSpotlight | undefined {
  const boot = bootImageOf(root) ?? kept?.boot;
  return boot?.venueId === venueId ? boot : undefined;
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
