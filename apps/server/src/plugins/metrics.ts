import { timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../lib/app-error.js';

/**
 * What an operator watches (docs/product.md §9, docs/deploy.md): request rate and latency
 * by route, open streams, published events, the message queue's depth, sends and failures, and the
 * event loop's delay (prom-client's default metrics), in Prometheus's text format at `/metrics`.
 * One registry per app, so two instances in one test process count apart.
 */
export interface Metrics {
  registry: Registry;
  streamOpened(kind: StreamKind): void;
  streamClosed(kind: StreamKind): void;
  eventPublished(): void;
  delivered(channel: string, outcome: DeliveryOutcome, count?: number): void;
}

export type StreamKind = 'diner' | 'host';
export type DeliveryOutcome = 'sent' | 'retry' | 'failed';

/** prom-client's default metrics this registry leaves out (`createMetrics`). */
export const UNCOUNTED_DEFAULTS = [
  'vez_nodejs_active_handles',
  'vez_nodejs_active_handles_total',
  'vez_nodejs_active_resources',
  'vez_nodejs_active_resources_total',
] as const;

/** `queueDepth`: the messages pending or being sent (the notifier asks the store). */
export function createMetrics(queueDepth: () => Promise<{ channel: string; status: string; n: number }[]>): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vez_' });
  // Not the counts of Node's open handles and resources: each scrape lists every one and looks up
  // its type's name, and an instance holds a socket per open page. At ~13,000 sockets that was
  // 13 ms of CPU a scrape out of 31 (docs/decisions/060-the-front-read-narrow.md); vez_open_streams
  // counts the pages, and process_open_fds (kept: it warns of running out) the descriptors.
  for (const name of UNCOUNTED_DEFAULTS) registry.removeSingleMetric(name);
  const streams = new Gauge({
    name: 'vez_open_streams',
    help: 'Live update streams open on this instance',
    labelNames: ['kind'],
    registers: [registry],
  });
  for (const kind of ['diner', 'host']) streams.set({ kind }, 0);
  const events = new Counter({
    name: 'vez_events_published_total',
    help: 'Venue events published by this instance',
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'vez_messages_total',
    help: 'Message deliveries by channel and outcome (sent, retry: failed and queued again, failed: given up)',
    labelNames: ['channel', 'outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'vez_message_queue_depth',
    help: 'Messages waiting to be sent (pending) or being sent, by channel, in the shared store',
    labelNames: ['channel', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const channel of ['sms', 'email', 'push']) for (const status of ['pending', 'sending']) this.set({ channel, status }, 0);
      for (const row of await queueDepth()) this.set({ channel: row.channel, status: row.status }, row.n);
    },
  });
  return {
    registry,
    streamOpened: (kind) => streams.inc({ kind }),
    streamClosed: (kind) => streams.dec({ kind }),
    eventPublished: () => events.inc(),
    delivered: (channel, outcome, count = 1) => deliveries.inc({ channel, outcome }, count),
  };
}

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Times every request by its route's pattern (never the raw URL: ids would make a series each) and
 * serves `/metrics` to a bearer of METRICS_TOKEN (401 otherwise). Without a token it answers 404:
 * figures about the traffic are not for everyone.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  const duration = new Histogram({
    name: 'vez_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (text format) for a bearer of METRICS_TOKEN; 401 otherwise, 404 when the server has none',
      },
    },
    async (request, reply) => {
      // Off without a token: answered here, or the web app's fallback would serve a page for it.
      if (!token) throw new AppError(ErrorCode.NOT_FOUND, 'Metrics are off on this server (METRICS_TOKEN is not set).');
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameToken(given, token)) {
        throw new AppError(ErrorCode.UNAUTHENTICATED, 'Send METRICS_TOKEN as a bearer token (Authorization: Bearer …).', 'authorization', {
          'www-authenticate': 'Bearer',
        });
      }
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
}
