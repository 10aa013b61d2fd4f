import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** 4xx answers are final: retrying a not-found or a validation error only delays the message. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}

/** Query keys of the diner client, in one place so pages and real-time events share the cache. */
export const queryKeys = {
  venueInfo: (venueId: string) => ['venue-info', venueId] as const,
  waitlistStatuses: (venueId: string) => ['waitlist-statuses', venueId] as const,
  position: (waitlistId: string) => ['position', waitlistId] as const,
  entryStatus: (waitlistId: string, venueId: string) => ['entry-status', waitlistId, venueId] as const,
};
