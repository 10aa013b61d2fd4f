import type { HostCancelBody, HostCreateEntryBody, HostEntryPatch, HostEntryResponse, WaitlistState } from '@vez/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { hostApi } from '../api/host-api';
import { hostKeys } from '../api/query-keys';

export type EntryAction =
  | { kind: 'call' | 'seat' | 'restore'; entryId: string }
  | { kind: 'cancel'; entryId: string; reason: HostCancelBody['reason'] }
  | { kind: 'edit'; entryId: string; patch: HostEntryPatch }
  | { kind: 'resend'; entryId: string; messageId: string };

function runAction(venueId: string, action: EntryAction): Promise<HostEntryResponse> {
  switch (action.kind) {
    case 'call':
      return hostApi.call(venueId, action.entryId);
    case 'seat':
      return hostApi.seat(venueId, action.entryId);
    case 'restore':
      return hostApi.restore(venueId, action.entryId);
    case 'cancel':
      return hostApi.cancel(venueId, action.entryId, action.reason);
    case 'edit':
      return hostApi.edit(venueId, action.entryId, action.patch);
    case 'resend':
      return hostApi.resend(venueId, action.entryId, action.messageId);
  }
}

/**
 * Writes on the queue. The stream brings the new queue; the refetch after each write covers a
 * stream that is reconnecting at that moment.
 */
export function useEntryActions(venueId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: hostKeys.queue(venueId) });
  const entry = useMutation({ mutationFn: (action: EntryAction) => runAction(venueId, action), onSettled: refresh });
  const walkIn = useMutation({ mutationFn: (body: HostCreateEntryBody) => hostApi.addWalkIn(venueId, body), onSettled: refresh });
  const waitlist = useMutation({ mutationFn: (state: WaitlistState) => hostApi.setWaitlist(venueId, state), onSettled: refresh });
  return { entry, walkIn, waitlist };
}
