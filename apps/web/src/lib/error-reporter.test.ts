import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportError, startErrorReporter } from './error-reporter';
import { setRuntimeConfig } from './runtime-config';

describe('error reporter', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports to the console, with tags, when no DSN is configured', async () => {
    setRuntimeConfig({ sentryDsn: '' });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await startErrorReporter();
    const failure = new Error('boom');
    reportError(failure, { venueId: 'v1', code: 'FAILED_TO_GET_THEME_FROM_CUSTOMER_API' });
    expect(error).toHaveBeenCalledWith('[vez]', failure, { venueId: 'v1', code: 'FAILED_TO_GET_THEME_FROM_CUSTOMER_API' });
  });
});
