import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface VezServer {
  baseUrl: string;
  port: number;
  /** The SQLite file of this server; change venue state in it with `support/db.ts`. */
  dbFile: string;
  /** Everything the server printed (stdout and stderr), for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment variables (SENTRY_DSN, SMART_LINK_BASE_URL, …). */
  env?: Record<string, string>;
  /** Milliseconds to wait for the server to answer. */
  timeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the real server as the demo (`node --import tsx apps/server/src/main.ts`, DEMO=1) as a child process on a free
 * port with a fresh SQLite file, so the demo venues are seeded. It serves a copy of the web build
 * in apps/web/dist taken at start: run `npm run build` first (root `npm test` does).
 */
export async function startVezServer(options: StartOptions = {}): Promise<VezServer> {
  if (!fs.existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the e2e journeys.');
  }
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-e2e-'));
  const dbFile = path.join(dir, 'vez.db');
  // A private copy of the web build: a rebuild during the run (another terminal, another helper)
  // replaces apps/web/dist's hashed files and would leave this server's page pointing at nothing.
  const webDist = path.join(dir, 'web-dist');
  fs.cpSync(path.join(repoRoot, 'apps/web/dist'), webDist, { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      // The demo, as `npm start` runs it (docs/product.md §9): its venues, staff logins and outbox route.
      DEMO: '1',
      DATABASE_URL: `file:${dbFile}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: baseUrl,
      WEB_DIST_DIR: webDist,
      // Every journey's browser is one loopback address: the bound of open parties per address
      // (docs/decisions/026) is lifted unless a journey sets it.
      JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '1000000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/robots.txt`);
      if (response.ok) return { baseUrl, port, dbFile, output: () => log, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`The server did not start on ${baseUrl}:\n${log}`);
}
