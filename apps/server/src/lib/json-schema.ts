import * as z from 'zod';
import type * as zm from 'zod/mini';

/** The JSON Schema of a contract schema, for the route's documentation (OpenAPI). */
export function jsonSchema(schema: zm.ZodMiniType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema as unknown as z.ZodType, { io, unrepresentable: 'any' });
  return rest;
}
