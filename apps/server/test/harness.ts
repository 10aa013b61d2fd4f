import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { Db } from '../src/db/connect.js';
import { seedDemo } from '../src/seed/demo.js';
import { TEST_REDIS_PREFIX } from './server-process.js';
import { BISTRO_HOST, DEMO_PASSWORD, loginCookie } from './staff-session.js';
import type { TestLocation, TestStore } from './stores.js';

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
  const clock = { now: Date.now() };
  const db = await seededStore(store, clock.now);
  const app = await appOnStore(db, { DEMO: '1', ...env }, { now: () => clock.now, ...extra });
  await app.ready();
  const config = app.config;
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

/** A fresh store with the demo venues and staff, for suites that start their own instances on it. */
export async function seededStore(store: TestStore, now = Date.now()): Promise<Db & { location: TestLocation }> {
  const db = await store.open();
  await seedDemo(db, now);
  return db;
}

/**
 * Every injected request comes from one address (127.0.0.1), and suites queue many parties at one
 * venue: the bound of open parties per address (docs/decisions/026) is lifted unless a suite sets it.
 */
export const ONE_ADDRESS_JOINS = { JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '1000000' } as const;

/**
 * One more app instance on a store the test holds: a second instance, one with its own bus,
 * reporter or clock, or one on a store that is gone. Quiet logs, NODE_ENV test (answers checked
 * against the contract), plus `env`. Not the demo: every rule holds unless `env` says `DEMO: '1'`
 * (NODE_ENV relaxes nothing, docs/security.md). Closing the app leaves the store open.
 */
export function appOnStore(db: Db, env: Record<string, string> = {}, deps: Omit<AppDeps, 'config' | 'db'> = {}): Promise<FastifyInstance> {
  return buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test', REDIS_PREFIX: TEST_REDIS_PREFIX, ...ONE_ADDRESS_JOINS, ...env }),
    db,
    ...deps,
  });
}

/** What `useTestApp` hands a suite: the started app's parts, read once its `beforeAll` has run. */
export interface TestAppHandle extends TestApp {
  /**
   * The Cookie header of a staff session (the demo bistro's owner unless `email` says who),
   * logged in through the API on first ask and kept for the file (docs/ARCHITECTURE.md habit 17).
   */
  staffCookie(email?: string, password?: string): Promise<string>;
  /** Forgets the kept sessions, for a test that ended them (a clock jump past their life, a retention run): the next ask logs in again. */
  forgetStaffCookies(): void;
  /** `http://127.0.0.1:<port>` of the app, for suites that asked it to listen (`{ listen: true }`: streams, real sockets). */
  readonly baseUrl: string;
}

/**
 * Starts the app on `store` for the enclosing `describe` (one app per file and store, as
 * `startTestApp`) and closes it after its last test: the suite's set-up in one line
 * (docs/ARCHITECTURE.md habit 17). The handle's parts are getters, read in hooks and tests. `env`
 * may be a function, read when the app starts: for a value an earlier `beforeAll` makes (a fake
 * provider's URL). Hooks run in the order they are registered; after-hooks in reverse.
 */
export function useTestApp(
  store: TestStore,
  env: Record<string, string> | (() => Record<string, string>) = {},
  extra: Pick<AppDeps, 'reporter' | 'logStream'> & { listen?: boolean } = {},
): TestAppHandle {
  const { listen, ...deps } = extra;
  let started: TestApp | undefined;
  let baseUrl: string | undefined;
  const cookies = new Map<string, Promise<string>>();
  const running = (): TestApp => {
    if (!started) throw new Error('useTestApp: the app starts in beforeAll; read it in a hook or a test');
    return started;
  };
  beforeAll(async () => {
    started = await startTestApp(store, typeof env === 'function' ? env() : env, deps);
    if (listen) {
      await started.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(started.app.server.address() as { port: number }).port}`;
    }
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
    cookies.clear();
  });
  return {
    get app() {
      return running().app;
    },
    get db() {
      return running().db;
    },
    get config() {
      return running().config;
    },
    get clock() {
      return running().clock;
    },
    close: () => running().close(),
    get baseUrl() {
      if (!baseUrl) throw new Error('useTestApp: pass { listen: true } for a base URL');
      return baseUrl;
    },
    forgetStaffCookies: () => cookies.clear(),
    staffCookie(email = BISTRO_HOST, password = DEMO_PASSWORD) {
      const key = `${email}\n${password}`;
      let cookie = cookies.get(key);
      if (!cookie) {
        cookie = loginCookie(running().app, email, password);
        cookies.set(key, cookie);
        cookie.catch(() => cookies.delete(key));
      }
      return cookie;
    },
  };
}
