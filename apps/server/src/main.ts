import { buildApp } from './app.js';
import { ConfigError, assertSafeToListen, loadConfig } from './config.js';
import { migrateToLatest, openDb } from './db/connect.js';
import { missingServerFlags } from './lib/v8-flags.js';
import { DEMO_STAFF_PASSWORD, demoStaff } from './modules/staff/staff-seed.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, seedDemo } from './seed/demo.js';

/** SIGTERM to exit, at most: under the 10 s an orchestrator usually waits before SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 9_000;

async function main(): Promise<void> {
  // `npm start` passes --demo (docs/product.md §9); any other start has no demo logins and no outbox route.
  const config = loadConfig({ ...process.env, ...(process.argv.includes('--demo') ? { DEMO: '1' } : {}) });
  assertSafeToListen(config);
  const db = openDb(config.database);
  await migrateToLatest(db);
  // Only the demo seeds (docs/product.md §9 over §5's "unless production"): NODE_ENV never turns it on.
  const seeded = config.DEMO ? await seedDemo(db) : false;

  // The retention job runs on the app's scheduler (jobs/scheduler.ts), with the hold windows' check.
  const app = await buildApp({ config, db, retention: true });

  // SIGTERM (docs/product.md §9; the order is docs/deploy.md's "Restarting without an error"):
  // readiness fails and the streams move to another instance while this one still serves; reads
  // are sent back to the proxy, which stops sending here; then it stops accepting, lets requests in
  // flight finish and keep-alive connections close (the proxy closes its idle ones), lets the
  // messages being sent go out, and closes the store. Whatever is still queued stays in the
  // store's outbox for the next worker.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const startedAt = Date.now();
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error({ signal, ms: Date.now() - startedAt }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    app.scheduler.stop();
    await app.drain.drain();
    await app.close();
    await db.close();
    app.log.info({ signal, ms: Date.now() - startedAt }, 'shut down');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Started another way than `npm run serve` or docs/deploy.md's unit: it runs, at a higher CPU cost.
  const missing = missingServerFlags();
  if (missing.length > 0)
    app.log.warn({ missing }, `started without Node's flags ${missing.join(' ')} (docs/deploy.md): each change costs more CPU`);
  const base = config.publicBaseUrl;
  const store = config.database.kind === 'sqlite' ? `SQLite ${config.database.file}` : 'PostgreSQL';
  process.stdout.write(
    [
      '',
      `Vez is running on ${base} (${store}${seeded ? ', demo data seeded' : ''})`,
      `  API description:      ${base}/api/docs`,
      ...(config.DEMO
        ? [
            `  Diner, Bistrô Demo:   ${base}/remote-waitlist/${DEMO_BISTRO_ID}`,
            `  Diner, Clube Demo:    ${base}/remote-waitlist/${DEMO_CLUB_ID}`,
            ...demoStaff.map(
              (s) => `  ${(s.role === 'owner' ? 'Owner login:' : 'Host login:').padEnd(22)}${s.email} / ${DEMO_STAFF_PASSWORD}`,
            ),
          ]
        : ['  Not the demo: no demo venues or logins (npm run admin -- help).']),
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  process.stderr.write(`Vez failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
