import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod/mini';

/**
 * A react-hook-form resolver over a zod/mini schema (@hookform/resolvers would pull in more than
 * we need). Flat forms only: an issue's path is joined with dots, its message kept as written in
 * the contract so the UI can translate it.
 */
export function zodMiniResolver<T extends FieldValues>(schema: z.ZodMiniType<T, unknown>): Resolver<T> {
  return async (values) => {
    const result = schema.safeParse(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      errors[path] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
