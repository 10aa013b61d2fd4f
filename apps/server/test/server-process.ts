import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../src/lib/v8-flags.js';

/** The repository root: `npm start` runs the server from here. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the server wrote to stderr so far (for failure messages). */
  stderr(): string;
  /**
   * Resolves at the `times`-th log line (standard output; start it with a LOG_LEVEL that writes one)
   * matching `pattern`, from now on (the first by default); rejects after `timeoutMs` or when the
   * process ends first.
   */
  untilLogged(pattern: RegExp, timeoutMs?: number, times?: number): Promise<void>;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * This test file's own Redis channels: files run side by side and share one Redis, and every
 * instance of a file (a cluster behind nginx) shares the file's prefix.
 */
export const TEST_REDIS_PREFIX = `vez-test-${randomBytes(6).toString('hex')}:`;

/** A port nobody listens on right now (the kernel picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the real server as `npm start` does (`node` with its flags, lib/v8-flags.ts, `--import tsx apps/server/src/main.ts`, the demo:
 * DEMO=1) on a free loopback port (or `env.PORT`), and resolves once GET /api/health answers 200. `DEMO: ''` in `env`
 * starts it as any other start would (`npm run serve`).
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<ServerProcess> {
  // `env.PORT`: the same port again (an instance restarted behind a proxy that names it).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    // Loopback is one client address for every request: the bound of open parties per address
    // (docs/decisions/026) is lifted unless a suite sets it.
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      DEMO: '1',
      JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE: '1000000',
      REDIS_PREFIX: TEST_REDIS_PREFIX,
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // Whole lines of standard output, to whoever waits for one (untilLogged).
  const lineListeners = new Set<(line: string) => void>();
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) for (const listener of [...lineListeners]) listener(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    child,
    stderr: () => stderr,
    untilLogged(pattern, timeoutMs = 15_000, times = 1) {
      let seen = 0;
      return new Promise<void>((resolve, reject) => {
        const finish = (error?: Error) => {
          lineListeners.delete(listener);
          clearTimeout(timer);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve();
        };
        const listener = (line: string) => {
          if (pattern.test(line) && ++seen >= times) finish();
        };
        const onExit = () => finish(new Error(`server exited before logging ${pattern}:\n${stderr}`));
        const timer = setTimeout(() => finish(new Error(`server did not log ${pattern} within ${timeoutMs} ms`)), timeoutMs);
        lineListeners.add(listener);
        child.once('exit', onExit);
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was ready:\n${stderr}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop('SIGKILL');
  throw new Error(`server not ready within ${timeoutMs} ms:\n${stderr}`);
}
