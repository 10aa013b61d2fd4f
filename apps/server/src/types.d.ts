import type { Config } from './config.js';
import type { Scheduler } from './jobs/scheduler.js';
import type { Db } from './db/connect.js';
import type { Notifier } from './modules/notifications/notifier.js';
import type { ChangeHooks, PositionCache, QueueDeps } from './modules/queue/index.js';
import type { EventBus } from './plugins/bus.js';
import type { Drain } from './plugins/drain.js';
import type { ClockedRateLimitStore } from './plugins/rate-limit-store.js';
import type { ErrorReporter } from './plugins/reporter.js';
import type { RouteTableEntry } from './plugins/route-table.js';

import type { Metrics } from './plugins/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    bus: EventBus;
    /** The app's clock (AppDeps.now, Date.now by default): every module that needs the time asks it. */
    now: () => number;
    reporter: ErrorReporter;
    /** Work run inside a change's transaction, fed by the modules that need it (modules/queue/change-hooks.ts). */
    changeHooks: ChangeHooks;
    queueDeps: QueueDeps;
    positions: PositionCache;
    notifier: Notifier;
    /** The server's VAPID public key for browser push, once loaded (docs/product.md §8). */
    vapidPublicKey: () => Promise<string | undefined>;
    /** The store of every request-rate limit (plugins/rate-limit-store.ts). */
    rateLimitStore: ClockedRateLimitStore;
    /** Every registered route (plugins/route-table.ts). */
    routeTable: readonly RouteTableEntry[];
    /** What `/metrics` serves (plugins/metrics.ts). */
    metrics: Metrics;
    /** The background jobs, from `ready` to `close` (jobs/scheduler.ts). */
    scheduler: Scheduler;
    /** Leaving the proxy on SIGTERM (plugins/drain.ts). */
    drain: Drain;
  }
}

declare module 'fastify' {
  interface FastifySchema {
    /** OpenAPI: grouping and one-line description of the route. */
    tags?: string[];
    summary?: string;
    /** OpenAPI: the longer explanation (answers, refusals). */
    description?: string;
  }
}
