/**
 * Every failure goes here. With a Sentry DSN in the runtime config, @sentry/react (~35 KB gzip)
 * loads on the first failure, not before (docs/decisions/034-lean-diner-pages.md): a page that
 * works never downloads it. Until then reports go to the console and are queued, then replayed;
 * uncaught errors and rejections are caught by two listeners until the SDK's own handlers take over.
 */
import { getRuntimeConfig } from './runtime-config';

export type ReportTags = Record<string, string>;

interface Sink {
  report(error: unknown, tags: ReportTags): void;
}

const consoleSink: Sink = {
  report(error, tags) {
    console.error('[vez]', error, tags);
  },
};

let sink: Sink | undefined;
const queue: { error: unknown; tags: ReportTags }[] = [];
let loading: Promise<void> | undefined;

export function reportError(error: unknown, tags: ReportTags = {}): void {
  if (sink) {
    sink.report(error, tags);
    return;
  }
  consoleSink.report(error, tags);
  const dsn = getRuntimeConfig().sentryDsn;
  if (!dsn) return;
  queue.push({ error, tags });
  loading ??= loadSentry(dsn);
}

const onUncaughtError = (event: ErrorEvent) => reportError(event.error ?? event.message, { area: 'uncaught' });
const onUnhandledRejection = (event: PromiseRejectionEvent) => reportError(event.reason, { area: 'unhandledrejection' });

/** Call once after the first paint: without a DSN reports stay in the console; with one, failures load the SDK. */
export function startErrorReporter(): Promise<void> {
  if (!getRuntimeConfig().sentryDsn) {
    sink = consoleSink;
    return Promise.resolve();
  }
  window.addEventListener('error', onUncaughtError);
  window.addEventListener('unhandledrejection', onUnhandledRejection);
  return Promise.resolve();
}

/** The SDK, once: it reports what was queued, and its own handlers replace the two listeners. */
async function loadSentry(dsn: string): Promise<void> {
  try {
    const Sentry = await import('@sentry/react');
    Sentry.init({ dsn });
    window.removeEventListener('error', onUncaughtError);
    window.removeEventListener('unhandledrejection', onUnhandledRejection);
    sink = {
      report(error, tags) {
        Sentry.withScope((scope) => {
          scope.setTags(tags);
          Sentry.captureException(error);
        });
      },
    };
    for (const item of queue.splice(0)) sink.report(item.error, item.tags);
  } catch (error) {
    sink = consoleSink;
    queue.length = 0;
    consoleSink.report(error, { area: 'error-reporter' });
  }
}

/** Resolves once the SDK has loaded after a failure (tests). */
export const errorReporterReady = (): Promise<void> => loading ?? Promise.resolve();
