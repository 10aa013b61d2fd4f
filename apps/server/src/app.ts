import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { ErrorCode, errorCatalogue } from '@vez/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { trustProxyOption } from './lib/trust-proxy.js';
import { collectRoutes, registerDocs } from './modules/docs/docs.routes.js';
import { registerHealth } from './modules/health/health.routes.js';
import { registerIdentity } from './modules/identity/identity.routes.js';
import { passportIssuerFor } from './modules/identity/passport.service.js';
import { registerNotifications } from './modules/notifications/register.js';
import { holdWindowsJob } from './jobs/hold-windows.js';
import { retentionJob } from './jobs/retention.js';
import { createScheduler } from './jobs/scheduler.js';
import { setupNotifications } from './modules/notifications/setup-notifications.js';
import { registerImages } from './modules/images/images.routes.js';
import { registerVenues } from './modules/venues/venues.routes.js';
import { bootSpotlightOf, hearVenuesThrough } from './modules/venues/venues.service.js';
import { createChangeHooks, createQueueCaches, findEntryByAnyId } from './modules/queue/index.js';
import { registerWaitlist } from './modules/waitlist/waitlist.routes.js';
import { registerHost } from './modules/host/host.routes.js';
import { registerRealtime } from './modules/realtime/realtime.routes.js';
import type { FanoutStrategy } from './modules/realtime/fanout.js';
import { createSessionWatch } from './modules/staff/session-watch.js';
import { ownerOfPathVenue, streamAccessOfPathVenue } from './modules/staff/staff-auth.js';
import { type EventBus, createLocalBus, forwardingBus } from './plugins/bus.js';
import { createRedisBus } from './plugins/bus-redis.js';
import { refuseBodiesOnBodylessWrites } from './plugins/bodyless-writes.js';
import { registerContractSchemas } from './plugins/contract-schemas.js';
import { KEEP_ALIVE_TIMEOUT_MS, registerDrain } from './plugins/drain.js';
import { registerErrorHandling } from './plugins/errors.js';
import { serializeRequest } from './plugins/log-urls.js';
import { ClockedRateLimitStore, asStoreOption } from './plugins/rate-limit-store.js';
import { type ErrorReporter, createReporter } from './plugins/reporter.js';
import { type Metrics, createMetrics, registerMetrics } from './plugins/metrics.js';
import { registerSecurityHeaders } from './plugins/security.js';
import { recordRouteTable } from './plugins/route-table.js';
import { registerWeb } from './plugins/web.js';

export interface AppDeps {
  config: Config;
  db: Db;
  bus?: EventBus;
  reporter?: ErrorReporter;
  /** The app's clock, decorated as `app.now` and given to every module that needs the time (tests move it). */
  now?: () => number;
  /** Runs the retention job (jobs/retention.ts) every RETENTION_INTERVAL_MINUTES: main.ts does; tests run it by hand. */
  retention?: boolean;
  /** Where log lines go instead of stdout (tests read them to check redaction). */
  logStream?: { write(line: string): void };
  /**
   * Bench only (bench/lib/*-server.ts): the simpler ways of kept optimisations, measured against
   * them in the same run (docs/decisions/018-optimisations-that-pay.md): a fan-out strategy
   * (modules/realtime/fanout.ts, bench/lib/fanout-variants.ts), no kept positions, no kept estimate
   * (each reader works out its venue's forecast itself: docs/decisions/038-one-forecast-per-change.md),
   * the message worker's writes in commits of their own (docs/decisions/039-notifier-rides-the-write-batch.md),
   * no forecast tail (a join at the end forecasts the queue up to it: docs/decisions/043-busy-venue-joins.md),
   * no rebased books (an expired book is read again: docs/decisions/047-rebased-books.md), venues
   * kept a moment only, heard or not, read again inside every transaction, and whatever stands on
   * hearing alone 30 s at most, as if events could be lost (`keptVenues: false`:
   * docs/decisions/052-venues-kept-while-heard.md).
   * Never set by main.ts.
   */
  bench?: {
    fanout?: FanoutStrategy;
    keptPositions?: false;
    sharedForecast?: false;
    notifierInBatch?: false;
    /** The outbox claimed on every round of the message worker (docs/decisions/065-outbox-claimed-when-something-waits.md). */
    outboxClaimedEachRound?: true;
    joinTail?: false;
    securityHeadersOnce?: false;
    rebase?: false;
    keptVenues?: false;
  };
}

/** Personal data never reaches the log (docs/product.md §3). */
export const redactedPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  // Top level, one and two levels down: pino's wildcards are not recursive.
  // joinProof gets a repeat joiner their entry back (docs/product.md §3): as secret as the entry's id.
  ...['name', 'phone', 'email', 'note', 'customer', 'joinProof'].flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  // Keys of an entry's link, its share link and a login (docs/product.md §3); URLs are masked in log-urls.ts.
  ...['share_id', 'shareId', 'entryId', 'waitlistId', 'passport', 'token', 'join_proof_hash'].flatMap((key) => [
    key,
    `*.${key}`,
    `*.*.${key}`,
  ]),
  'entry.id',
  '*.entry.id',
  '*.password',
  '*.code',
  '*.otp',
  '*.target',
];

/** Builds the whole server: infrastructure plugins, then the modules under /api, then the web app. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      // No entry id, share id or login token in a logged URL (docs/product.md §3).
      serializers: { req: serializeRequest },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    // Only the proxies' own X-Forwarded-For entries count (docs/security.md).
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 64 * 1024,
    ajv: { customOptions: { strict: false } },
    // Shutting down is plugins/drain.ts's: requests arriving meanwhile are served (not 503), and no
    // idle keep-alive connection is closed under the proxy's feet (docs/deploy.md).
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    return503OnClosing: false,
    forceCloseConnections: false,
  });
  // Contract schemas parse requests and check answers at the route (plugins/contract-schemas.ts).
  // Checking answers is a developer aid, not a rule: it makes every test prove the contract, and in
  // production (NODE_ENV's default) it would turn a slip into a 500 for a diner and cost each answer
  // a parse. Rules are relaxed by DEMO alone (docs/security.md, Safe defaults).
  registerContractSchemas(app, { checkResponses: config.NODE_ENV !== 'production' });

  const reporter = deps.reporter ?? (await createReporter(config.SENTRY_DSN, app.log));
  // Several instances share venue events through Redis when REDIS_URL is set (README, Scale-out).
  const channels =
    deps.bus ??
    (config.REDIS_URL
      ? createRedisBus(config.REDIS_URL, { prefix: config.REDIS_PREFIX, onError: (e) => app.log.error({ err: e }, 'redis bus') })
      : createLocalBus());
  // Every publish goes through the position cache first, so this instance never answers an old position.
  // A bench's simpler way (`keptVenues: false`) keeps as if events could be lost on the way: 30 s at most.
  const heard = deps.bench?.keptVenues === false && channels.lossless ? withoutLossless(channels) : channels;
  const caches = createQueueCaches(heard, {
    ...(deps.bench?.joinTail === false ? { tail: false as const } : {}),
    ...(deps.bench?.rebase === false ? { rebase: false as const } : {}),
  });
  // The queue's depth comes from the notifier, set up below; asked at each scrape.
  const metrics = createMetrics(() => app.notifier.depth());
  const { positions } = caches;
  // Venues stay kept while this instance hears their events, and serve a change's own write
  // transaction (docs/decisions/052-venues-kept-while-heard.md).
  if (deps.bench?.keptVenues !== false) hearVenuesThrough(deps.db.kysely, positions);
  const bus = countedBus(caches.bus, metrics);
  const now = deps.now ?? Date.now;
  app.decorate('now', now);
  app.decorate('config', config);
  app.decorate('db', deps.db);
  app.decorate('bus', bus);
  app.decorate('positions', positions);
  app.decorate('reporter', reporter);
  app.decorate('metrics', metrics);
  // One registry of work inside a change's transaction, fed by the modules that need it (the messages).
  const changeHooks = createChangeHooks();
  app.decorate('changeHooks', changeHooks);
  // SMS on join and on call go through the durable message queue (docs/decisions/003-message-queue.md).
  const messaging = setupNotifications(app, {
    now,
    issuePassport: passportIssuerFor(now),
    ...(deps.bench?.notifierInBatch === false ? { inWriteBatch: false as const } : {}),
    ...(deps.bench?.outboxClaimedEachRound ? { outboxClaimedEachRound: true as const } : {}),
  });
  const keptPositions = deps.bench?.keptPositions === false ? {} : { positions };
  app.decorate('queueDeps', {
    db: deps.db,
    bus,
    now,
    hooks: changeHooks,
    ...messaging,
    staffSendBounds: { perParty10Min: config.STAFF_SENDS_PER_PARTY_PER_10_MIN, perVenueHour: config.STAFF_SENDS_PER_VENUE_PER_HOUR },
    onBackgroundError: (error: unknown) => reporter.report(error, { job: 'getting-close' }),
    ...keptPositions,
    ...(deps.bench?.sharedForecast === false ? {} : { pace: caches.pace }),
  });
  // Console streams end with their session, on every instance (docs/security.md, "Staff sessions end everywhere").
  const sessions = createSessionWatch(bus, deps.db.kysely, now, (error) => reporter.report(error, { module: 'session-watch' }));
  // Background jobs, timed in one place from `ready` to `close` (jobs/scheduler.ts).
  const scheduler = createScheduler(app, (error, job) => reporter.report(error, { job }));
  app.decorate('scheduler', scheduler);
  scheduler.add(holdWindowsJob(app.queueDeps));
  if (deps.retention) {
    scheduler.add(
      retentionJob(app.queueDeps, {
        retentionHours: config.RETENTION_HOURS,
        openMaxHours: config.RETENTION_OPEN_MAX_HOURS,
        intervalMinutes: config.RETENTION_INTERVAL_MINUTES,
        // Each one was announced like a cancel: pages, consoles and kept answers follow.
        onExpired: (n) => app.log.info({ expired: n }, 'retention: parties left open for a day ended'),
        onErased: (n) => app.log.info({ erased: n }, 'retention: personal data erased'),
      }),
    );
  }

  app.decorate('drain', registerDrain(app));
  registerErrorHandling(app);
  // Before every route: the latency histogram times them all (plugins/metrics.ts).
  registerMetrics(app, metrics, config.METRICS_TOKEN);
  const routes = collectRoutes(app);
  app.decorate('routeTable', recordRouteTable(app));
  refuseBodiesOnBodylessWrites(app);
  registerSecurityHeaders(app, deps.bench?.securityHeadersOnce === false ? { once: false } : {});
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip', 'identity'] });
  await app.register(cookie);
  // Every request-rate limit counts in one store, on the app's clock (plugins/rate-limit-store.ts).
  const rateLimitStore = new ClockedRateLimitStore(now);
  app.decorate('rateLimitStore', rateLimitStore);
  await app.register(rateLimit, {
    global: false,
    store: asStoreOption(rateLimitStore),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: ErrorCode.RATE_LIMITED,
      message: `${errorCatalogue.RATE_LIMITED.message} Retry in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });

  // The modules, each registering its own routes (under /api, the image host at /images); what a
  // module needs from another (a staff check) is handed in here.
  await registerHealth(app);
  await registerVenues(app);
  await registerWaitlist(app);
  await registerIdentity(app);
  await registerNotifications(app);
  await registerHost(app);
  await registerRealtime(app, {
    staffGuard: streamAccessOfPathVenue(deps.db, sessions, now),
    ...(deps.bench?.fanout ? { fanout: deps.bench.fanout } : {}),
  });
  // Uploads are branding, an owner's (docs/decisions/023-staff-roles.md); the upload routes refuse cross-site writes.
  await registerImages(app, { guard: ownerOfPathVenue(deps.db, now), now });
  await registerDocs(app, { routes });
  await registerWeb(app, {
    bootSpotlight: (venueId) => bootSpotlightOf(deps.db.kysely, config.IMAGE_BASE_URL, venueId),
    positionBootSpotlight: async (waitlistId) => {
      const found = await findEntryByAnyId(deps.db.kysely, waitlistId);
      return found && bootSpotlightOf(deps.db.kysely, config.IMAGE_BASE_URL, found.entry.venue_id);
    },
  });
  app.addHook('onClose', async () => {
    sessions.close();
    await bus.close();
    await reporter.flush();
  });
  return app;
}

/** The same bus, as one that may lose events on the way (a bench's simpler way only). */
function withoutLossless(bus: EventBus): EventBus {
  const { lossless: _lossless, ...lossy } = bus;
  return lossy;
}

/** The bus, counting what this instance publishes (plugins/metrics.ts). */
function countedBus(bus: EventBus, metrics: Metrics): EventBus {
  return forwardingBus(bus, (event) => {
    metrics.eventPublished();
    bus.publish(event);
  });
}
