import { HealthResponse } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { checkHealth } from './health.service.js';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Ready when the store answers (200), otherwise 503',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (request, reply) => {
      const { health, error } = await checkHealth(app.db);
      // A probe failing every few seconds would flood the reporter: the log is enough here.
      if (error) request.log.warn({ err: error }, 'health: store unavailable');
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );

  // The benchmark's baseline: the same server and hooks, no store. Only when BENCH_BARE_ROUTE=1.
  if (app.config.BENCH_BARE_ROUTE && !app.config.isProduction) {
    app.get('/bench/bare', async () => ({ ok: true }));
  }
}
