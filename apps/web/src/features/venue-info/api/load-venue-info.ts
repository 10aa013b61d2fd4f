import {
  type ErrorCode,
  PRODUCT_NAME,
  type PartySizesResponse,
  type ThemeResponse,
  type VenueResponse,
  imageOrPlaceholder,
  spotlightImages,
} from '@vez/contract';
import { apiGet, isApiError } from '../../../lib/api-client';
import { reportError } from '../../../lib/error-reporter';
import { getRuntimeConfig } from '../../../lib/runtime-config';
import placeholder from '../../../assets/header-placeholder.svg';
import { type VenueInfo, type VenueInfoResult, defaultVenueInfo, mergeVenueInfo } from '../lib/venue-info';
import { bootBannerOf, readBootSpotlight, withBootBanner } from '../lib/boot-spotlight';
import { readCachedVenueInfo, writeCachedVenueInfo } from '../lib/venue-info-storage';

type Settled<T> = { ok: true; data: T } | { ok: false; error: unknown };

async function settle<T>(promise: Promise<T>, failure: ErrorCode, venueId: string): Promise<Settled<T>> {
  try {
    return { ok: true, data: await promise };
  } catch (error) {
    // docs/product.md §12.6: tag the venue id and report the matching FAILED_TO_GET_* code.
    reportError(error, { venueId, code: failure });
    return { ok: false, error };
  }
}

const isMissingVenue = (error: unknown) => isApiError(error) && (error.status === 404 || error.status === 400);

/**
 * The session's kept venue info for this id (docs/product.md §13), showing the banner that this page's
 * boot screen already shows; kept again with it, so the session's next screens show the same one.
 */
export function keptVenueInfo(venueId: string): VenueInfo | undefined {
  const cached = readCachedVenueInfo(venueId);
  if (!cached) return undefined;
  const venueInfo = withBootBanner(cached, readBootSpotlight(venueId));
  if (venueInfo !== cached) writeCachedVenueInfo(venueInfo);
  return venueInfo;
}

export function reservationFallback(venueId: string): string {
  return `${getRuntimeConfig().smartLinkBaseUrl}${venueId}`;
}

/**
 * Loads venue, party sizes and theme in parallel and merges them (docs/product.md §12.6). Empty or
 * failed answers record VENUE_INFO_NOT_FOUND, WAITLIST_SETTINGS_NOT_FOUND or THEME_NOT_FOUND; the
 * other calls still count. A fully successful load is cached for the session.
 */
export async function loadVenueInfo(venueId: string): Promise<VenueInfoResult> {
  const kept = keptVenueInfo(venueId);
  if (kept) return { success: true, errors: [], notFound: false, venueInfo: kept };
  const boot = readBootSpotlight(venueId);

  const base = `/waitlists/${encodeURIComponent(venueId)}`;
  const [venue, sizes, theme] = await Promise.all([
    settle(apiGet<VenueResponse>(`/venues/${encodeURIComponent(venueId)}`), 'FAILED_TO_GET_VENUE_INFO_FROM_CUSTOMER_API', venueId),
    settle(apiGet<PartySizesResponse>(`${base}/party-sizes`), 'FAILED_TO_GET_WAITLIST_SETTINGS_UNAUTHENTICATED_FROM_LEGACY_API', venueId),
    settle(
      apiGet<ThemeResponse>(`/themes/${PRODUCT_NAME}-api/${encodeURIComponent(venueId)}`),
      'FAILED_TO_GET_THEME_FROM_CUSTOMER_API',
      venueId,
    ),
  ]);

  const errors: ErrorCode[] = [];
  const parts: Partial<VenueInfo>[] = [];
  const { imageBaseUrl } = getRuntimeConfig();

  if (venue.ok && venue.data?._id) {
    const v = venue.data;
    parts.push({
      slug: v.slug,
      venueName: v.name,
      city: v.address.city,
      neighborhood: v.address.neighborhood,
      hasMenu: v.hasMenu,
      hiredServices: { loginJourney: v.hiredServices?.loginJourney ?? false },
      settings: v.settings,
      reservationUrl: v.reservationUrl || reservationFallback(venueId),
      channel: v.channel ?? 'sms',
    });
  } else {
    errors.push('VENUE_INFO_NOT_FOUND');
  }

  const first = sizes.ok ? sizes.data?.[0] : undefined;
  if (first) {
    parts.push({ maxPartySize: Math.max(1, first.partySizesWidget.max), sections: first.sections ?? [] });
  } else {
    errors.push('WAITLIST_SETTINGS_NOT_FOUND');
  }

  if (theme.ok && theme.data?.color) {
    const t = theme.data;
    // The random banner: the one the boot screen already shows, else a pick here.
    const images = bootBannerOf(t, imageBaseUrl, boot) ?? spotlightImages(t, imageBaseUrl, placeholder);
    parts.push({
      color: t.color,
      logoVertical: imageOrPlaceholder(imageBaseUrl, t.logo.vertical, ''),
      logoHorizontal: imageOrPlaceholder(imageBaseUrl, t.logo.horizontal, ''),
      typeImageSpotlight: t.typeImageSpotlight,
      smallBackgroundImage: images.small,
      largeBackgroundImage: images.large,
    });
  } else {
    errors.push('THEME_NOT_FOUND');
  }

  const venueInfo = mergeVenueInfo(defaultVenueInfo(venueId, reservationFallback(venueId), placeholder), ...parts);
  const success = errors.length === 0;
  if (success) writeCachedVenueInfo(venueInfo);
  return { success, errors, notFound: !venue.ok && isMissingVenue(venue.error), venueInfo };
}
