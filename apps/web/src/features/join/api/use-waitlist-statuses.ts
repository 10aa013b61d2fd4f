import { useQuery } from '@tanstack/react-query';
import type { WaitlistStatusesResponse } from '@vez/contract';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-client';

/** Whether the venue's waitlist is open (locked and active flags); checked on every visit. */
export function useWaitlistStatuses(venueId: string) {
  return useQuery({
    queryKey: queryKeys.waitlistStatuses(venueId),
    queryFn: ({ signal }) => apiGet<WaitlistStatusesResponse>(`/waitlists/${encodeURIComponent(venueId)}/waitlist-statuses`, signal),
    // Fresh on every visit; a few seconds let the call made at start-up (app/prefetch.ts) count.
    staleTime: 5_000,
  });
}
