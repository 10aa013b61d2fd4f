import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hostApi } from '../api/host-api';
import { createHostQueryClient } from './host-query-client';

/**
 * docs/decisions/032-the-door-on-a-busy-night.md: a console write made offline fails at once and is
 * never run later on its own (TanStack's default would pause it and replay it when back online).
 */
describe('console writes offline', () => {
  afterEach(() => {
    onlineManager.setOnline(true);
    vi.restoreAllMocks();
  });

  it('fail at once without a request, and nothing runs when the network is back', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const client = createHostQueryClient();
    const mutationFn = vi.fn(() => hostApi.call('6553f1a2b3c4d5e6f7a8b901', 'AAAAAAAAAAAAAAAAAAAAAA'));
    onlineManager.setOnline(false);
    const call = client.getMutationCache().build(client, { mutationFn });
    await expect(call.execute(undefined)).rejects.toMatchObject({ status: 0, message: 'offline' });
    expect(call.state.status).toBe('error');
    expect(call.state.isPaused).toBe(false);
    onlineManager.setOnline(true);
    await client.resumePausedMutations();
    expect(mutationFn).toHaveBeenCalledTimes(1);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
