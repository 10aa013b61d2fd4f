import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RouteTableEntry {
  method: string;
  url: string;
  /** Whether the route documents a JSON body (its contract schema validates it). */
  hasBodySchema: boolean;
}

/**
 * Every route the app registers (HEAD excepted), as it registers them; call before the modules.
 * The fuzz suite walks it, so a new route is fuzzed without anyone listing it.
 */
export function recordRouteTable(app: FastifyInstance): readonly RouteTableEntry[] {
  const table: RouteTableEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, hasBodySchema: Boolean(route.schema?.body) });
    }
  });
  return table;
}
