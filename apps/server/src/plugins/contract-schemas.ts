import { ErrorCode, isEntryId, isVenueId } from '@vez/contract';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { AppError } from '../lib/app-error.js';
import { jsonSchema } from '../lib/json-schema.js';
import { parseInput } from '../lib/validate.js';

/**
 * Contract schemas at the route (docs/ARCHITECTURE.md, habit 15). A route names its contract schemas in its
 * `schema` (params, querystring, body, response); this one place parses requests with them, so a
 * handler receives typed input and a service never parses `unknown`. A failure is a 4xx naming the
 * field (lib/validate.ts). Path ids answer the catalogue's own code for a malformed id, in the
 * order the path names them.
 *
 * Responses are checked against their contract schema outside production (NODE_ENV development or
 * test; a developer aid, not a rule: app.ts): every test then proves the server answers what the
 * contract says; in production they are only serialised.
 */

type ContractSchema = z.ZodMiniType;

const isContractSchema = (schema: unknown): schema is ContractSchema =>
  typeof schema === 'object' && schema !== null && '_zod' in schema && typeof (schema as ContractSchema).safeParse === 'function';

/** Path parameters are ids with their own error codes (docs/product.md §3.1: a malformed id answers its own error code). */
const pathIdCodes = new WeakMap<object, Record<string, ErrorCode>>();

const PATH_ID_CHECKS: Record<string, { isValid: (value: string) => boolean; code: ErrorCode }> = {
  venueId: { isValid: isVenueId, code: ErrorCode.INVALID_VENUEID_FORMAT },
  waitlistId: { isValid: isEntryId, code: ErrorCode.INVALID_WAITLISTID_FORMAT },
  entryId: { isValid: isEntryId, code: ErrorCode.INVALID_WAITLISTID_FORMAT },
};

/**
 * The params schema of a path, for example `pathParams('waitlistId', 'venueId')`: ids are checked
 * in that order, each with its catalogue code; any other name is a non-empty string.
 */
export function pathParams<const K extends string>(...names: K[]): z.ZodMiniObject<{ [P in K]: z.ZodMiniString }> {
  const shape = Object.fromEntries(names.map((name) => [name, z.string()])) as { [P in K]: z.ZodMiniString };
  const schema = z.object(shape);
  pathIdCodes.set(
    schema,
    Object.fromEntries(names.filter((name) => name in PATH_ID_CHECKS).map((name) => [name, PATH_ID_CHECKS[name]!.code])),
  );
  return schema;
}

function checkPathIds(schema: object, params: Record<string, unknown>): void {
  const codes = pathIdCodes.get(schema);
  if (!codes) return;
  for (const name of Object.keys(codes)) {
    const value = params[name];
    if (typeof value !== 'string' || !PATH_ID_CHECKS[name]!.isValid(value)) throw new AppError(codes[name]!);
  }
}

/** The JSON Schema of a route part, for the OpenAPI document: contract schemas are converted. */
export function documentedSchema(schema: unknown, io: 'input' | 'output'): unknown {
  return isContractSchema(schema) ? jsonSchema(schema, io) : schema;
}

export function registerContractSchemas(app: FastifyInstance, options: { checkResponses: boolean }): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (!isContractSchema(schema)) return (data) => ({ value: data });
    return (data) => {
      try {
        if (httpPart === 'params') checkPathIds(schema, (data ?? {}) as Record<string, unknown>);
        // A missing body is parsed as undefined, never as Fastify's null placeholder.
        return { value: parseInput(schema, data ?? undefined) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  });
  app.setSerializerCompiler(({ schema, url, method, httpStatus }) => {
    if (!options.checkResponses || !isContractSchema(schema)) return (data) => JSON.stringify(data);
    return (data) => {
      const result = schema.safeParse(data);
      if (!result.success) {
        const issue = result.error.issues[0];
        throw new Error(
          `${method} ${url} ${httpStatus}: the answer breaks its contract at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        );
      }
      return JSON.stringify(data);
    };
  });
}
