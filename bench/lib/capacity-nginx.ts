// nginx in front of the instances of bench/capacity.bench.ts: the proxy settings docs/deploy.md
// gives operators (and apps/server/test/nginx.ts uses) with what many streams need on this machine.
// Each proxied stream costs nginx two sockets, and no process here may hold more than 20,000 open
// files (the hard limit cannot be raised), so several workers share them: the master runs,
// `reuseport` gives each worker its own listening socket (the kernel spreads connections evenly,
// where one shared socket lets the quickest worker take most), and each worker may use up to the limit.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { guideNginxBlock } from '../../apps/server/test/guide-nginx.js';
import { childrenOf } from './proc-stats.js';

export const NGINX = '/usr/sbin/nginx';

/** `venue`: docs/deploy.md's `hash` on the venue of a stream (one instance per venue); `round-robin`: nginx's default. */
export type Balance = 'venue' | 'round-robin';

/**
 * The `map` blocks and the `hash` line of docs/deploy.md's nginx block, read from the guide itself,
 * so the bench measures what operators are given (apps/server/test/deploy-guide.test.ts runs the rest).
 */
function guideAffinity(): { maps: string; hash: string } {
  const block = guideNginxBlock();
  const maps = [...block.matchAll(/^ *map [^{]*\{[^}]*\}\n/gm)].map((m) => m[0]).join('');
  const hash = /^ *(hash [^;]*;)/m.exec(block)?.[1];
  if (!maps || !hash) throw new Error("docs/deploy.md's nginx block has no venue `map` or `hash` line");
  return { maps, hash };
}

/**
 * The upstream's `keepalive_timeout` line of docs/deploy.md: nginx must close an idle connection to
 * an instance before the instance does, or a request sent on a connection the instance is closing
 * fails (a 502 for a write, which nginx does not pass on). nginx's default, 60 s, is past the
 * server's 6 s.
 */
function guideKeepalive(): string {
  const line = /^ *(keepalive_timeout [^;]*;)/m.exec(guideNginxBlock())?.[1];
  if (!line) throw new Error("docs/deploy.md's nginx block has no upstream `keepalive_timeout` line");
  return line;
}

export function capacityNginxConfig(
  dir: string,
  port: number,
  upstreams: string[],
  workers: number,
  fileLimit: number,
  balance: Balance = 'venue',
): string {
  const affinity = balance === 'venue' ? guideAffinity() : undefined;
  return `daemon off;
master_process on;
worker_processes ${workers};
worker_rlimit_nofile ${fileLimit};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${fileLimit - 500}; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${affinity?.maps ?? ''}  upstream vez {
    ${affinity ? `${affinity.hash}\n    ` : ''}${upstreams.map((u) => `server ${u} max_fails=1 fail_timeout=5s;`).join('\n    ')}
    keepalive 64;
    ${guideKeepalive()}
  }
  server {
    listen 127.0.0.1:${port} reuseport backlog=4096;
    location / {
      proxy_pass http://vez;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

export interface CapacityNginx {
  port: number;
  /** The master's pid; its workers are childrenOf(pid). */
  pid: number;
  workers(): number[];
  errors(): Promise<string>;
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the kernel picks it); the capacity bench's servers use it too. */
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

export async function startCapacityNginx(
  upstreams: string[],
  workers: number,
  fileLimit: number,
  balance: Balance = 'venue',
): Promise<CapacityNginx> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vez-capacity-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, capacityNginxConfig(dir, port, upstreams, workers, fileLimit, balance));
  let stderr = '';
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    pid: child.pid!,
    workers: () => childrenOf(child.pid!),
    errors: async () => `${stderr}${await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        // Fast shutdown: open streams do not hold it.
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
