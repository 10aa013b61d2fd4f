import { type ErrorCode, errorCatalogue } from '@vez/contract';

/** An expected failure: a code from the catalogue, a safe message, optionally the field at fault. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly field?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? errorCatalogue[code].message);
    this.statusCode = errorCatalogue[code].status;
  }
}
