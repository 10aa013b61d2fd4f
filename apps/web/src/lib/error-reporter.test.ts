import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sentry = vi.hoisted(() => ({
  loaded: 0,
  init: vi.fn(),
  captureException: vi.fn(),
  tags: [] as Record<string, string>[],
}));

vi.mock('@sentry/react', () => {
  sentry.loaded++;
  return {
    init: sentry.init,
    captureException: sentry.captureException,
    withScope: (fn: (scope: { setTags: (tags: Record<string, string>) => void }) => void) =>
      fn({ setTags: (tags) => sentry.tags.push(tags) }),
  };
});

/** A fresh reporter module per test: it keeps its sink and queue for the page's life. */
async function freshReporter(sentryDsn: string) {
  vi.resetModules();
  const { setRuntimeConfig } = await import('./runtime-config');
  setRuntimeConfig({ sentryDsn });
  return import('./error-reporter');
}

describe('error reporter', () => {
  beforeEach(() => {
    sentry.loaded = 0;
    sentry.tags.length = 0;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('reports to the console, with tags, when no DSN is configured', async () => {
    const { reportError, startErrorReporter } = await freshReporter('');
    await startErrorReporter();
    const failure = new Error('boom');
    reportError(failure, { venueId: 'v1', code: 'FAILED_TO_GET_THEME_FROM_CUSTOMER_API' });
    expect(console.error).toHaveBeenCalledWith('[vez]', failure, { venueId: 'v1', code: 'FAILED_TO_GET_THEME_FROM_CUSTOMER_API' });
    expect(sentry.loaded).toBe(0);
  });

  it('with a DSN, loads the SDK only on the first failure and reports it with its tags', async () => {
    const { reportError, startErrorReporter, errorReporterReady } = await freshReporter('https://key@sentry.example/1');
    await startErrorReporter();
    await errorReporterReady();
    expect(sentry.loaded).toBe(0); // a page that works never downloads it
    const failure = new Error('boom');
    reportError(failure, { area: 'share' });
    await errorReporterReady();
    expect(sentry.init).toHaveBeenCalledWith({ dsn: 'https://key@sentry.example/1' });
    expect(sentry.captureException).toHaveBeenCalledWith(failure);
    expect(sentry.tags).toEqual([{ area: 'share' }]);
  });

  it('with a DSN, an uncaught rejection loads the SDK and is reported', async () => {
    const { startErrorReporter, errorReporterReady } = await freshReporter('https://key@sentry.example/1');
    await startErrorReporter();
    const reason = new Error('nobody caught me');
    const event = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.defineProperty(event, 'reason', { value: reason });
    window.dispatchEvent(event);
    await errorReporterReady();
    expect(sentry.captureException).toHaveBeenCalledWith(reason);
    expect(sentry.tags).toEqual([{ area: 'unhandledrejection' }]);
  });
});
