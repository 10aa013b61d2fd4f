import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-client';
import { keptVenueInfo, loadVenueInfo } from '../api/load-venue-info';
import type { VenueInfoResult } from '../lib/venue-info';

/**
 * The venue of a page, with its load result. Never throws: errors are codes in the result.
 * Reused from sessionStorage for the same id (docs/product.md §13), so the random banner stays put.
 */
export function useVenueInfo(venueId: string | undefined) {
  return useQuery<VenueInfoResult>({
    queryKey: queryKeys.venueInfo(venueId ?? ''),
    queryFn: () => loadVenueInfo(venueId ?? ''),
    enabled: Boolean(venueId),
    staleTime: Number.POSITIVE_INFINITY,
    initialData: () => {
      const kept = venueId ? keptVenueInfo(venueId) : undefined;
      return kept ? { success: true, errors: [], notFound: false, venueInfo: kept } : undefined;
    },
  });
}
