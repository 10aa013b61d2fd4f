import type { Language, PositionResponse } from '@vez/contract';
import type { QueryClient } from '@tanstack/react-query';
import { positionKey } from '../lib/position-key';
import { fetchPosition } from './position-api';

/**
 * Starts GET /position while the page's code still downloads (the app's prefetch calls it at
 * start), into the same cache entry the page reads. Answers the position, or undefined on failure:
 * the page then shows the failure itself.
 */
export function prefetchPosition(queryClient: QueryClient, waitlistId: string, lng: Language): Promise<PositionResponse | undefined> {
  return queryClient
    .fetchQuery({
      queryKey: positionKey(waitlistId, lng),
      queryFn: ({ signal }) => fetchPosition(waitlistId, lng, signal),
      staleTime: Number.POSITIVE_INFINITY,
    })
    .catch(() => undefined);
}
