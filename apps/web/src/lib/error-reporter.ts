/**
 * Every failure goes here. With a Sentry DSN in the runtime config, @sentry/react is loaded
 * lazily after the first paint (it weighs ~35 KB gzip); before that, and without a DSN, reports
 * go to the console. Reports made before the SDK is ready are queued and replayed.
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

export function reportError(error: unknown, tags: ReportTags = {}): void {
  if (sink) {
    sink.report(error, tags);
    return;
  }
  consoleSink.report(error, tags);
  if (getRuntimeConfig().sentryDsn) queue.push({ error, tags });
}

/** Call once after the first paint. */
export async function startErrorReporter(): Promise<void> {
  const dsn = getRuntimeConfig().sentryDsn;
  if (!dsn) {
    sink = consoleSink;
    return;
  }
  try {
    const Sentry = await import('@sentry/react');
    Sentry.init({ dsn });
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
    consoleSink.report(error, { area: 'error-reporter' });
  }
}
