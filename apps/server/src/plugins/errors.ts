import { type ApiErrorBody, ErrorCode, errorCatalogue } from '@vez/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import pg from 'pg';
import { AppError } from '../lib/app-error.js';

/** Fastify's own errors for bad requests, mapped to the catalogue; the rest are unexpected. */
function fromFastifyError(error: FastifyError): AppError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError(ErrorCode.PAYLOAD_TOO_LARGE);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
  if (error.statusCode === 429) return new AppError(ErrorCode.RATE_LIMITED, error.message);
  if (
    error.code?.startsWith('FST_ERR_CTP') ||
    error.code === 'FST_ERR_VALIDATION' ||
    (error.statusCode === 400 && !error.code?.startsWith('FST_ERR_'))
  ) {
    return new AppError(ErrorCode.MALFORMED_REQUEST, 'The request body is not valid JSON.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(ErrorCode.MALFORMED_REQUEST, error.message);
  }
  return undefined;
}

/** SQLite result codes a value sent by a client can cause (a string or blob over the limit). */
const SQLITE_INPUT_ERRORS = new Set(['SQLITE_TOOBIG', 'SQLITE_RANGE']);

/**
 * A database refusing a value the client sent (docs/security.md): the contract should have
 * refused it first; this is the safety net that keeps it a 4xx. PostgreSQL class 22 (data
 * exception: invalid byte sequence 22021, invalid text 22P02, dates 22007/22008, NUL 22P05, …)
 * and 54 (program limit: a value too large to index).
 */
function fromDatabaseError(error: unknown): { error: AppError; state: string } | undefined {
  if (error instanceof pg.DatabaseError && typeof error.code === 'string' && /^(22|54)/.test(error.code)) {
    return { error: new AppError(ErrorCode.VALIDATION_FAILED, 'A value in the request cannot be stored.'), state: error.code };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && error.name === 'SqliteError' && typeof code === 'string' && SQLITE_INPUT_ERRORS.has(code)) {
    return { error: new AppError(ErrorCode.VALIDATION_FAILED, 'A value in the request cannot be stored.'), state: code };
  }
  return undefined;
}

/**
 * One error model (docs/ARCHITECTURE.md, habit 6): every error answers `ApiErrorBody`. Unexpected errors go to
 * the reporter and answer a 500 with no detail.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const database = error instanceof AppError ? undefined : fromDatabaseError(error);
    // A validation gap, not a client's fault alone: logged with the database's code, never the value.
    if (database) request.log.warn({ sqlState: database.state, route: request.routeOptions.url }, 'database refused a request value');
    const known = error instanceof AppError ? error : (database?.error ?? fromFastifyError(error));
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
