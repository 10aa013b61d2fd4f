import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toE164 } from '../src/lib/phone.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody, nextPhone } from './fixtures.js';
import { type ServerProcess, freePort, startServerProcess } from './server-process.js';

const NGINX = '/usr/sbin/nginx';
const hasNginx = existsSync(NGINX);
if (!hasNginx) console.warn(`SKIPPED nginx-proxy.test.ts: ${NGINX} is missing (install the nginx package; .ci/run must install it)`);

const LIMIT = 3;

/** One nginx, as an operator would put it in front, round-robin over the given servers. */
function nginxConfig(dir: string, port: number, upstreams: string[]): string {
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream vez { ${upstreams.map((u) => `server ${u};`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://vez;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`;
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

/**
 * docs/security.md: behind a real nginx that appends the peer's address to X-Forwarded-For, two
 * server instances with TRUST_PROXY=1 key their limits on the real client, whatever it sends itself.
 */
describe.skipIf(!hasNginx)('rate limits behind nginx (TRUST_PROXY=1, two instances)', () => {
  let dir: string;
  let nginx: ChildProcess;
  let base: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vez-nginx-'));
    const env = {
      DATABASE_URL: `file:${path.join(dir, 'vez.db')}`,
      REDIS_URL: '',
      TRUST_PROXY: '1',
      RATE_LIMIT_JOINS_PER_10_MIN: String(LIMIT),
      RATE_LIMIT_JOINS_PER_VENUE_PER_ADDRESS_10_MIN: '1000',
      OTP_SENDS_PER_ADDRESS_PER_10_MIN: String(LIMIT),
      MESSAGE_WORKER: '0',
    };
    // One after the other: the first creates and seeds the shared SQLite file.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
    const port = await freePort();
    const conf = path.join(dir, 'nginx.conf');
    await writeFile(
      conf,
      nginxConfig(
        dir,
        port,
        servers.map((s) => s.url.replace('http://', '')),
      ),
    );
    nginx = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/api/health`);
  }, 120_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(servers.map((s) => s.stop()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const post = (url: string, body: unknown, spoof: string) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': spoof },
      body: JSON.stringify(body),
    });

  it('code sends (counted in the shared store): the limit holds across both instances, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await post(
        '/api/otp/send',
        { productName: 'waitlist', channel: 'sms', venueId: DEMO_CLUB_ID, type: 'validate', target: toE164(nextPhone()) },
        `198.51.100.${i}`,
      );
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
  });

  it('joins (counted per instance): at most the limit per instance, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3 * LIMIT; i++)
      statuses.push((await post(`/api/waitlists/${DEMO_BISTRO_ID}/create`, createBody(), `203.0.113.${i}, 10.9.9.${i}`)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2 * LIMIT);
    expect(statuses.slice(2 * LIMIT)).toEqual(Array(LIMIT).fill(429));
  });
});
