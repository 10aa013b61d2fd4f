import type { FastifyBaseLogger } from 'fastify';

/** Where unexpected errors go: Sentry when SENTRY_DSN is set, the log otherwise. */
export interface ErrorReporter {
  report(error: unknown, context?: Record<string, string>): void;
  flush(): Promise<void>;
}

export async function createReporter(dsn: string | undefined, log: FastifyBaseLogger): Promise<ErrorReporter> {
  if (!dsn) {
    return {
      report(error, context) {
        log.error({ err: error, ...context }, 'unexpected error');
      },
      async flush() {},
    };
  }
  const Sentry = await import('@sentry/node');
  Sentry.init({ dsn, tracesSampleRate: 0 });
  return {
    report(error, context) {
      log.error({ err: error, ...context }, 'unexpected error');
      Sentry.withScope((scope) => {
        for (const [k, v] of Object.entries(context ?? {})) scope.setTag(k, v);
        Sentry.captureException(error);
      });
    },
    async flush() {
      await Sentry.flush(2000);
    },
  };
}
