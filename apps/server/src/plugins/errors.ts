import { type ApiErrorBody, ErrorCode, errorCatalogue } from '@vez/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** Fastify's own errors for bad requests, mapped to the catalogue; the rest are unexpected. */
function fromFastifyError(error: FastifyError): AppError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  if (error.statusCode === 429) return new AppError(ErrorCode.RATE_LIMITED, error.message);
  if (error.code?.startsWith('FST_ERR_CTP') || error.code === 'FST_ERR_VALIDATION' || (error.statusCode === 400 && !error.code?.startsWith('FST_ERR_'))) {
    return new AppError(ErrorCode.MALFORMED_REQUEST, 'The request body is not valid JSON.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(ErrorCode.MALFORMED_REQUEST, error.message);
  }
  return undefined;
}

/**
 * One error model (conventions §6): every error answers `ApiErrorBody`. Unexpected errors go to
 * the reporter and answer a 500 with no detail.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error);
    if (!known) {
      app.reporter.report(error, { route: request.routeOptions.url ?? 'unknown', method: request.method });
      const body: ApiErrorBody = {
        statusCode: 500,
        code: ErrorCode.UNKNOWN_ERROR,
        message: errorCatalogue.UNKNOWN_ERROR.message,
      };
      return reply.status(500).send(body);
    }
    const body: ApiErrorBody = { statusCode: known.statusCode, code: known.code, message: known.message };
    if (known.field) body.field = known.field;
    if (known.headers) reply.headers(known.headers);
    return reply.status(known.statusCode).send(body);
  });
}
