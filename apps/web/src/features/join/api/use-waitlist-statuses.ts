import { useQuery } from '@tanstack/react-query';
import type { WaitlistStatusesResponse } from '@vez/contract';
import { apiGet } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-client';

/** Whether the venue's waitlist is open (locked and active flags); checked on every visit. */
export function useWaitlistStatuses(venueId: string) {
  return useQuery({
    queryKey: queryKeys.waitlistStatuses(venueId),
    queryFn: ({ signal }) => apiGet<WaitlistStatusesResponse>(`/waitlists/${encodeURIComponent(venueId)}/waitlist-statuses`, signal),
    staleTime: 0,
  });
}
