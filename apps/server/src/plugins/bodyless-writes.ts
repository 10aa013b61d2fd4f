import { ErrorCode } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Write bodies are strict (docs/ARCHITECTURE.md, habit 15): a write that takes no body (call, seat, logout, …)
 * refuses one with keys, naming the first, instead of ignoring it. `{}`, `null` and no body pass.
 * Routes with a body schema validate theirs with the contract; multipart uploads (no JSON body) pass.
 */
export function refuseBodiesOnBodylessWrites(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!WRITES.has(request.method) || request.routeOptions.schema?.body) return;
    const body: unknown = request.body;
    if (body === undefined || body === null || body === '') return;
    if (typeof body === 'object' && !Array.isArray(body)) {
      const key = Object.keys(body)[0];
      if (key === undefined) return;
      throw new AppError(ErrorCode.VALIDATION_FAILED, `Unknown field: ${key}`, key);
    }
    throw new AppError(ErrorCode.VALIDATION_FAILED, 'This request takes no body.');
  });
}
