import type { FastifyInstance, RouteOptions } from 'fastify';
import { documentedSchema } from '../../plugins/contract-schemas.js';

interface DocumentedRoute {
  method: string;
  url: string;
  schema: Record<string, unknown>;
}

const apiErrorSchema = {
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    message: { type: 'string' },
    field: { type: 'string' },
  },
};

/** A route's schema with its contract schemas turned into JSON Schema. */
function documented(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  for (const part of ['params', 'querystring', 'body'] as const) if (part in schema) out[part] = documentedSchema(schema[part], 'input');
  if (schema.response) {
    out.response = Object.fromEntries(
      Object.entries(schema.response as Record<string, unknown>).map(([code, s]) => [code, documentedSchema(s, 'output')]),
    );
  }
  return out;
}

/** Collects every route's schema as it is registered; call before the modules register. */
export function collectRoutes(app: FastifyInstance): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  app.addSchema({ $id: 'ApiError', ...apiErrorSchema });
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') || !route.schema || route.method === 'HEAD') return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method: method.toLowerCase(), url: route.url, schema: documented(route.schema as Record<string, unknown>) });
    }
  });
  return routes;
}

const refFix = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('"ApiError#"', '"#/components/schemas/ApiError"'));

function toOperation(route: DocumentedRoute) {
  const s = route.schema as {
    summary?: string;
    tags?: string[];
    description?: string;
    params?: { properties?: Record<string, unknown> };
    querystring?: { properties?: Record<string, unknown> };
    body?: unknown;
    response?: Record<string, unknown>;
  };
  const parameters = [
    ...Object.entries(s.params?.properties ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...Object.entries(s.querystring?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
  ];
  return {
    summary: s.summary,
    ...(s.description ? { description: s.description } : {}),
    tags: s.tags,
    parameters,
    ...(s.body ? { requestBody: { required: true, content: { 'application/json': { schema: refFix(s.body) } } } } : {}),
    responses: Object.fromEntries(
      Object.entries(s.response ?? {}).map(([code, schema]) => [
        code,
        { description: Number(code) < 400 ? 'Success' : 'Error', content: { 'application/json': { schema: refFix(schema) } } },
      ]),
    ),
  };
}

/** The OpenAPI 3.1 description, generated from the same contract schemas the routes validate with. */
export function buildOpenApi(routes: DocumentedRoute[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method] = toOperation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vez API', version: '1.0.0', description: 'Remote waitlist: the diner API, the host API and the user-manager API.' },
    servers: [{ url: serverUrl }],
    paths,
    components: { schemas: { ApiError: apiErrorSchema } },
  };
}

export async function docsRoutes(app: FastifyInstance, options: { routes: DocumentedRoute[] }): Promise<void> {
  let cached: unknown;
  const handler = async () => (cached ??= buildOpenApi(options.routes, app.config.publicBaseUrl));
  app.get('/docs', handler);
  app.get('/docs/openapi.json', handler);
}

/** The OpenAPI document of every route collected (`collectRoutes`), under /api. */
export async function registerDocs(app: FastifyInstance, options: { routes: DocumentedRoute[] }): Promise<void> {
  await app.register(docsRoutes, { prefix: '/api', ...options });
}
