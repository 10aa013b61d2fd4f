import { ErrorCode, errorCatalogue } from '@vez/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';

const TEN_MINUTES = 600_000;

/**
 * Joins per venue and client address (decisions §3), beside the route's own limit per address:
 * one address cannot fill one venue's queue. @fastify/rate-limit runs one limiter per request, so
 * this one is checked by hand with the plugin's own store; it answers like the plugin (429 with
 * Retry-After).
 */
export function venueJoinLimit(app: FastifyInstance, max: number) {
  const check = app.createRateLimit({
    max,
    timeWindow: TEN_MINUTES,
    keyGenerator: (request) => `${(request.params as { venueId?: string }).venueId ?? ''}|${request.ip}`,
  });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const limit = await check(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    reply.header('retry-after', String(limit.ttlInSeconds));
    throw new AppError(ErrorCode.RATE_LIMITED, `${errorCatalogue.RATE_LIMITED.message} Retry in ${limit.ttlInSeconds} s.`);
  };
}
