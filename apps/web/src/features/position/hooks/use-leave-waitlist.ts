import { ErrorCode, type PositionResponse } from '@vez/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reportError } from '../../../lib/error-reporter';
import { queryKeys } from '../../../lib/query-client';
import { leaveWaitlist } from '../api/position-api';

/**
 * Leaves with reason Customer. On success every cached language of this position becomes the
 * cancelled entry at once (spec section 4: 'resets the local entry'); the stream confirms it.
 */
export function useLeaveWaitlist(waitlistId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: { venueId: string; customerId: string }) => leaveWaitlist(waitlistId, entry.venueId, entry.customerId),
    onSuccess: (status) => {
      queryClient.setQueriesData<PositionResponse>({ queryKey: queryKeys.position(waitlistId) }, (old) =>
        old
          ? { ...old, waitlist: { ...old.waitlist, status: 'cancelled', cancelReason: status.cancelReason ?? 'Customer', globalPos: 0, pos: 0 } }
          : old,
      );
    },
    onError: (error) => reportError(error, { code: ErrorCode.FAILED_TO_LEAVE_WAITLIST, waitlistId }),
  });
}
