import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setRuntimeConfig } from '../lib/runtime-config';

/**
 * The real API in-process (apps/server buildApp on a fresh SQLite file with the demo venues),
 * listening on a free port; the web's API client is pointed at it. No fetch mocking.
 * Server modules are imported by URL so the web's type check does not walk into the server.
 * Tests reach it only through its HTTP API (docs/ARCHITECTURE.md habit 10): what no diner route
 * does, staff do through the host API (demo-host-api.ts), and messages are read from the demo outbox.
 */
export interface TestApi {
  baseUrl: string;
  close(): Promise<void>;
}

interface ServerModules {
  buildApp(deps: unknown): Promise<{
    listen(o: object): Promise<string>;
    ready(): Promise<void>;
    close(): Promise<void>;
  }>;
  loadConfig(env: Record<string, string>): unknown;
  openDb(database: unknown): { close(): Promise<void> };
  migrateToLatest(db: unknown): Promise<void>;
  seedDemo(db: unknown): Promise<boolean>;
}

// apps/web/src/test -> apps/server/src
const serverSrc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server/src');

async function loadServer(): Promise<ServerModules> {
  const load = (file: string) => import(/* @vite-ignore */ path.join(serverSrc, file));
  const [app, config, connect, demo] = await Promise.all([load('app.ts'), load('config.ts'), load('db/connect.ts'), load('seed/demo.ts')]);
  return { ...app, ...config, ...connect, ...demo } as ServerModules;
}

/**
 * Every request of a web test comes from 127.0.0.1: the server's bound of open parties per client
 * address (docs/decisions/026) is lifted unless `env` sets it.
 */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const server = await loadServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-web-test-'));
  const dbFile = path.join(dir, 'vez.db');
  const db = server.openDb({ kind: 'sqlite', file: dbFile });
  await server.migrateToLatest(db);
  await server.seedDemo(db);
  const config = server.loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DEMO: '1',
    JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '1000000',
    ...env,
    DATABASE_URL: `file:${dbFile}`,
  });
  const app = await server.buildApp({ config, db });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  setRuntimeConfig({ apiBaseUrl: `${address}/api`, imageBaseUrl: `${address}/images` });
  return {
    baseUrl: address,
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ApiJoin {
  status: number;
  _id: string;
  joinProof: string;
}

/** A diner's join through the real API (another browser or device), with the create payload of docs/product.md §13. */
export async function joinByApi(
  api: TestApi,
  venueId: string,
  customer: { name?: string; phone: string },
  partySize = 2,
): Promise<ApiJoin> {
  const response = await fetch(`${api.baseUrl}/api/waitlists/${venueId}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      customer: { name: customer.name ?? 'Ana Souza', phone: customer.phone, email: '' },
      venue: venueId,
      origin: { label: 'Widget' },
      partySize,
      benefits: '',
      logs: { actionType: 'Add' },
      data: { origin: 'Waitlist widget' },
      sendSms: true,
    }),
  });
  return { status: response.status, ...((await response.json()) as { _id: string; joinProof: string }) };
}
