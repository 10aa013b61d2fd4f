import { HealthResponse, LivenessResponse } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { checkHealth } from './health.service.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary:
          'Readiness: 200 when the store (and Redis, on an instance that uses it) answers, otherwise 503; 503 `draining` once the instance is shutting down',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (request, reply) => {
      // Readiness fails first on SIGTERM (plugins/drain.ts), while the instance still serves.
      if (app.drain.isDraining()) return reply.status(503).send({ status: 'draining', store: app.db.dialect });
      const { health, errors } = await checkHealth(app.db, app.bus.ping ? () => app.bus.ping!() : undefined);
      // A probe failing every few seconds would flood the reporter: the log is enough here.
      for (const error of errors) request.log.warn({ err: error }, 'health: unavailable');
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: 200 while the process answers, whatever the store (restart on failure, not on a store outage)',
        response: { 200: LivenessResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  // The benchmark's baseline: the same server and hooks, no store. Only when BENCH_BARE_ROUTE=1, in
  // the demo: a route outside the contract is a relaxation (docs/security.md, Safe defaults).
  if (app.config.BENCH_BARE_ROUTE && app.config.DEMO) {
    app.get('/bench/bare', async () => ({ ok: true }));
  }
}

/** The module's routes, under /api (app.ts registers every module the same way). */
export async function registerHealth(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes, { prefix: '/api' });
}
