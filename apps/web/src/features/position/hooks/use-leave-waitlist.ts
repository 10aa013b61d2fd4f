import { type ErrorCode, type PositionResponse } from '@vez/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { reportError } from '../../../lib/error-reporter';
import { queryKeys } from '../../../lib/query-client';
import { leaveWaitlist } from '../api/position-api';

/**
 * Leaves with reason Customer. On success every cached language of this position becomes the
 * cancelled entry at once (docs/product.md §14: 'resets the local entry'); the stream confirms it.
 * Plain state rather than useMutation: the mutation machinery would add ~3 KB gzip to the page's
 * first load (its JS budget is 120 KB) for one request.
 */
export function useLeaveWaitlist(waitlistId: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'pending' | 'error'>('idle');

  const leave = useCallback(
    async (entry: { venueId: string; customerId: string }) => {
      setState('pending');
      try {
        const status = await leaveWaitlist(waitlistId, entry.venueId, entry.customerId);
        queryClient.setQueriesData<PositionResponse>({ queryKey: queryKeys.position(waitlistId) }, (old) =>
          old
            ? {
                ...old,
                waitlist: { ...old.waitlist, status: 'cancelled', cancelReason: status.cancelReason ?? 'Customer', globalPos: 0, pos: 0 },
              }
            : old,
        );
        setState('idle');
      } catch (error) {
        reportError(error, { code: 'FAILED_TO_LEAVE_WAITLIST' satisfies ErrorCode, waitlistId });
        setState('error');
      }
    },
    [queryClient, waitlistId],
  );

  return { leave, isPending: state === 'pending', isError: state === 'error', reset: () => setState('idle') };
}
