import * as z from 'zod/mini';

/**
 * `GET /api/health`: readiness, for load balancers and `docker` health checks: ok when the store
 * answers and, on an instance that shares events through Redis, Redis answers too; `draining` (503)
 * from the moment the instance is told to stop (docs/deploy.md, "Restarting without an error").
 */
export const HealthResponse = z.object({
  status: z.enum(['ok', 'unavailable', 'draining']),
  store: z.enum(['sqlite', 'postgres']),
  /** Present on an instance with REDIS_URL. */
  redis: z.optional(z.enum(['ok', 'unavailable'])),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `GET /api/health/live`: liveness, the process answers (restart it when this fails, not when the store is down). */
export const LivenessResponse = z.object({ status: z.literal('ok') });
export type LivenessResponse = z.infer<typeof LivenessResponse>;
