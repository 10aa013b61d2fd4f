import { CONTROL_CHARACTER_MESSAGE, ErrorCode } from '@vez/contract';
import type * as z from 'zod/mini';
import { AppError } from './app-error.js';

type Issue = z.core.$ZodIssue;

/** The path of an issue, dotted; an unknown key's path ends with the key itself. */
function fieldOf(issue: Issue): string | undefined {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  return path.map(String).join('.') || undefined;
}

function messageOf(issue: Issue, field: string | undefined): string {
  // Write bodies are strict (docs/ARCHITECTURE.md, habit 15): a typo must not pass as "nothing changed".
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.length > 1 ? `Unknown fields: ${issue.keys.join(', ')}` : `Unknown field: ${issue.keys[0]}`;
  }
  if (issue.message === CONTROL_CHARACTER_MESSAGE && field) return `Control characters are not allowed in ${field}.`;
  if (issue.message && !issue.message.startsWith('Invalid input')) return issue.message;
  return `Invalid value${field ? ` for ${field}` : ''}.`;
}

/**
 * Parses input with a contract schema; a failure is a 422 naming the offending field. An unknown
 * key is reported before anything else: it usually explains the rest (a misspelt field).
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, code: ErrorCode = ErrorCode.VALIDATION_FAILED): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) throw new AppError(code);
  const field = fieldOf(issue);
  throw new AppError(code, messageOf(issue, field), field);
}
