import * as z from 'zod/mini';

/** `GET /api/health`: ready when the store answers (load balancers and `docker` health checks). */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  store: z.enum(['sqlite', 'postgres']),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
