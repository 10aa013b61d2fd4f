import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.js';

export const NGINX = '/usr/sbin/nginx';
/** .ci/run installs Debian's nginx; a suite that needs it says so when it is missing. */
export const hasNginx = existsSync(NGINX);

/**
 * The proxy settings docs/deploy.md gives operators, for a test's own nginx: round-robin over the
 * instances (the guide's venue `hash` left out: everything works without it, at more cost per
 * change), the client's address appended to X-Forwarded-For, streams passed through as they are
 * written (no buffering, no read timeout shorter than a heartbeat), and its keep-alive and retries
 * (an idle upstream connection closed by nginx before the server would; refused connections and
 * reads passed to the other instance, never a write that was sent).
 */
export function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream vez {
    zone vez 64k;
    ${upstreams.map((u) => `server ${u} max_fails=1 fail_timeout=2s;`).join('\n    ')}
    keepalive 16;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://vez;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_connect_timeout 2s;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}

export interface Nginx {
  base: string;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Starts nginx in front of the given server URLs; resolves once /api/health answers through it. */
export async function startNginx(serverUrls: string[]): Promise<Nginx> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vez-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    nginxConfig(
      dir,
      port,
      serverUrls.map((u) => u.replace('http://', '')),
    ),
  );
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/api/health`);
  return {
    base,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
