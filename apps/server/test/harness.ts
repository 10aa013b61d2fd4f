import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { Db } from '../src/db/connect.js';
import { seedDemo } from '../src/seed/demo.js';
import type { TestStore } from './stores.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: { now: number };
  close(): Promise<void>;
}

/**
 * A whole app on a fresh store with the demo data, a settable clock and quiet logs. It runs as the
 * demo (DEMO=1: the outbox route the suites read codes from); pass `DEMO: '0'` for a plain server.
 */
export async function startTestApp(
  store: TestStore,
  env: Record<string, string> = {},
  extra: Pick<AppDeps, 'reporter' | 'logStream'> = {},
): Promise<TestApp> {
  const db = await store.open();
  const clock = { now: Date.now() };
  await seedDemo(db, clock.now);
  const config = loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', DEMO: '1', ...env });
  const app = await buildApp({ config, db, now: () => clock.now, ...extra });
  await app.ready();
  return {
    app,
    db,
    config,
    clock,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
