import type { HostCreateEntryBody, HostEntryResponse } from '@vez/contract';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { WalkInDialog } from '../features/host/components/walk-in-dialog';
import { ApiError } from '../lib/api-client';
import type { TestApi } from './api-server';
import { cookieFor } from './demo-host-api';

/**
 * The walk-in dialog with the console's own mutation, sent to the real API with a staff session of
 * the venue (Node's fetch keeps no cookies, so the session's header is added here). `sent` records
 * each body the dialog sends; `onClose` is called once the party is added.
 */
export function renderWalkInDialog(api: TestApi, venueId: string, options: { maxPartySize?: number; channel?: 'sms' | 'whatsapp' } = {}) {
  const sent = vi.fn();
  const onClose = vi.fn();
  function Harness() {
    const mutation = useMutation<HostEntryResponse, Error, HostCreateEntryBody>({
      mutationFn: async (body) => {
        sent(body);
        const response = await fetch(`${api.baseUrl}/api/host/venues/${venueId}/entries`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: await cookieFor(api, venueId) },
          body: JSON.stringify(body),
        });
        const answer = await response.json();
        if (!response.ok) throw new ApiError(response.status, answer);
        return answer as HostEntryResponse;
      },
    });
    return (
      <WalkInDialog maxPartySize={options.maxPartySize ?? 8} channel={options.channel ?? 'sms'} mutation={mutation} onClose={onClose} />
    );
  }
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return { sent, onClose };
}
