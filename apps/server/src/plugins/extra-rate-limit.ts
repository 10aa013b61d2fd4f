import { ErrorCode, errorCatalogue } from '@vez/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.js';

export interface ExtraRateLimit {
  max: number;
  timeWindow: number;
  keyGenerator: (request: FastifyRequest) => string;
  /** What was spent, for the 429's message; the catalogue's text otherwise. */
  message?: string;
}

/**
 * A limit checked by hand with @fastify/rate-limit's own store, beside (or instead of) a route's
 * configured one: the plugin runs one limiter per request, and some counts depend on what the
 * request turns out to need (an image conversion, not a cached answer). It answers like the
 * plugin: 429 with Retry-After (docs/security.md).
 */
export function extraRateLimit(app: FastifyInstance, options: ExtraRateLimit): (request: FastifyRequest) => Promise<void> {
  const check = app.createRateLimit({ max: options.max, timeWindow: options.timeWindow, keyGenerator: options.keyGenerator });
  const message = options.message ?? errorCatalogue.RATE_LIMITED.message;
  return async (request) => {
    const limit = await check(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    throw new AppError(ErrorCode.RATE_LIMITED, `${message} Retry in ${limit.ttlInSeconds} s.`, undefined, {
      'retry-after': String(limit.ttlInSeconds),
    });
  };
}
