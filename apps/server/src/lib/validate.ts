import { ErrorCode } from '@vez/contract';
import type * as z from 'zod/mini';
import { AppError } from './app-error.js';

/** Parses input with a contract schema; a failure is a 422 naming the first offending field. */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, code: ErrorCode = ErrorCode.VALIDATION_FAILED): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || undefined;
  const message = issue?.message && !issue.message.startsWith('Invalid input') ? issue.message : `Invalid value${field ? ` for ${field}` : ''}.`;
  throw new AppError(code, message, field);
}
