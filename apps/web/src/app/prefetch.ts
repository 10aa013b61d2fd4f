import type { QueryClient } from '@tanstack/react-query';
import { HEADER_IMAGE_SIZES, HEADER_WIDE_MEDIA, type WaitlistStatusesResponse, responsiveImage } from '@vez/contract';
import { matchPath } from '../lib/router';
import { paths } from '../config/paths';
import { prefetchPosition } from '../features/position/api/prefetch-position';
import { loadVenueInfo } from '../features/venue-info/api/load-venue-info';
import { apiGet } from '../lib/api-client';
import { currentLanguage, initI18n } from '../lib/i18n';
import { queryKeys } from '../lib/query-client';

/**
 * Fetch the header image as soon as its URL is known, while the screen's code still loads: one
 * preload per media, with the <img>'s own srcset and sizes, so the browser picks the very
 * candidate the header will show (one download, not two variants).
 */
function preloadHeaderImage(small: string, large: string): void {
  const preload = (url: string, media: string) => {
    const { src, srcSet } = responsiveImage(url);
    if (src.startsWith('data:')) return;
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'image';
    link.media = media;
    link.fetchPriority = 'high';
    if (srcSet) {
      link.imageSrcset = srcSet;
      link.imageSizes = HEADER_IMAGE_SIZES;
    } else link.href = src;
    document.head.appendChild(link);
  };
  preload(large, HEADER_WIDE_MEDIA);
  preload(small, `not all and ${HEADER_WIDE_MEDIA}`);
}

/**
 * Starts the first screen's code chunk, data calls and header image at once, instead of one after
 * the other as rendering discovers them: fewer round trips before the page paints (mobile LCP).
 */
export function prefetchForLocation(queryClient: QueryClient, pathname: string): void {
  const waitlistId = matchPath(paths.position.path, pathname)?.params.waitlistId;
  if (waitlistId) {
    // The position names the venue: its branding follows as soon as the position answers.
    void import('./routes/waitlist');
    void prefetchPosition(queryClient, waitlistId, currentLanguage(initI18n().language)).then(
      (position) => position && prefetchVenue(queryClient, position.waitlist.venue),
    );
    return;
  }
  const venueId = matchPath(paths.join.path, pathname)?.params.venueId;
  if (!venueId) return;
  import('./routes/remote-waitlist').catch(() => undefined); // the router's own lazy import surfaces a failure
  prefetchVenue(queryClient, venueId);
  void queryClient.prefetchQuery({
    queryKey: queryKeys.waitlistStatuses(venueId),
    queryFn: ({ signal }) => apiGet<WaitlistStatusesResponse>(`/waitlists/${encodeURIComponent(venueId)}/waitlist-statuses`, signal),
  });
}

function prefetchVenue(queryClient: QueryClient, venueId: string): void {
  void queryClient
    .fetchQuery({
      queryKey: queryKeys.venueInfo(venueId),
      queryFn: () => loadVenueInfo(venueId),
      staleTime: Number.POSITIVE_INFINITY,
    })
    .then((result) => preloadHeaderImage(result.venueInfo.smallBackgroundImage, result.venueInfo.largeBackgroundImage))
    .catch(() => undefined);
}
