import type { HostCancelBody, HostCreateEntryBody, HostEntryPatch, HostEntryResponse, WaitlistState } from '@vez/contract';
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
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
 *
 * Each tap on a party is its own mutation (`entry.mutateAsync`, one promise per tap), and `busy`
 * holds the parties with a write in flight: one card waiting for the server never blocks the
 * others (docs/decisions/032-the-door-on-a-busy-night.md). A write made offline fails at once
 * (host-query-client.ts): nothing is kept to be sent later.
 */
export function useEntryActions(venueId: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: hostKeys.queue(venueId) });
  const mutationKey = hostKeys.entryWrites(venueId);
  const entry = useMutation({
    mutationKey,
    mutationFn: (action: EntryAction) => runAction(venueId, action),
    networkMode: 'always',
    onSettled: refresh,
  });
  const pending = useMutationState({
    filters: { mutationKey, status: 'pending' },
    select: (mutation) => (mutation.state.variables as EntryAction | undefined)?.entryId,
  });
  const key = pending.join(' ');
  // A new Set only when the list of busy parties changes, so cards re-render only then.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is `pending`'s content
  const busy = useMemo(() => new Set(pending.filter((id): id is string => id !== undefined)), [key]);
  const walkIn = useMutation({
    mutationFn: (body: HostCreateEntryBody) => hostApi.addWalkIn(venueId, body),
    networkMode: 'always',
    onSettled: refresh,
  });
  const waitlist = useMutation({
    mutationFn: (state: WaitlistState) => hostApi.setWaitlist(venueId, state),
    networkMode: 'always',
    onSettled: refresh,
  });
  return { entry, busy, walkIn, waitlist };
}
