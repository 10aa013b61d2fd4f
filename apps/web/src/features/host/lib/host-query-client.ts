import { type QueryClient, onlineManager } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { createQueryClient } from '../../../lib/query-client';

/**
 * The console's query client. A staff tap never waits for the network to come back and then runs on
 * its own (docs/product.md §6, docs/decisions/032-the-door-on-a-busy-night.md): TanStack Query's
 * default `networkMode: 'online'` pauses a mutation made offline and replays it when the browser is
 * back, which sent a call's SMS 35 s after the tap. With `'always'` the request is tried at once,
 * and `assertOnline` makes it fail at once with the console's "nothing was sent" message.
 */
export function createHostQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, mutations: { ...defaults.mutations, networkMode: 'always' } });
  return client;
}

/** The code the console reads as "offline: nothing was sent" (error-text.ts). */
export const OFFLINE_MESSAGE = 'offline';

/** Throws before a write leaves the browser while it knows it has no network. */
export function assertOnline(): void {
  if (!onlineManager.isOnline()) throw new ApiError(0, { code: 'UNKNOWN_ERROR', message: OFFLINE_MESSAGE });
}
