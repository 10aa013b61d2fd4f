import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { NGINX, hasNginx } from './nginx.js';
import { freePort, repoRoot } from './server-process.js';

const OPENSSL = '/usr/bin/openssl';

/** What a suite running the guide's nginx needs and is missing here (empty: it can run). */
export function missingForGuideNginx(): string[] {
  return [!hasNginx && `${NGINX} (the nginx package)`, !existsSync(OPENSSL) && `${OPENSSL} (for a test certificate)`].filter(
    (m): m is string => typeof m === 'string',
  );
}

/** The nginx block of docs/deploy.md, the one operators copy (these tests and bench/lib/capacity-nginx.ts read it). */
export function guideNginxBlock(): string {
  const guide = readFileSync(path.join(repoRoot, 'docs/deploy.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/deploy.md has no nginx block');
  return block;
}

/**
 * The nginx configuration docs/deploy.md gives operators, as written there, with only what a test
 * must change: the two upstream addresses, the ports, the certificate, and where nginx keeps its files.
 */
export async function guideConfig(dir: string, ports: { https: number; http: number }, upstreams: string[]): Promise<string> {
  const block = guideNginxBlock();
  const servers = [...block.matchAll(/^\s*server \d+\.\d+\.\d+\.\d+:\d+[^;]*;\n/gm)];
  if (servers.length !== 2) throw new Error(`docs/deploy.md's nginx block names ${servers.length} upstream servers, not 2`);
  let conf = block;
  servers.forEach((m, i) => {
    conf = conf.replace(m[0], m[0].replace(/\d+\.\d+\.\d+\.\d+:\d+/, upstreams[i]!));
  });
  conf = conf
    .replace(/listen 443 /, `listen 127.0.0.1:${ports.https} `)
    .replace(/listen 80;/, `listen 127.0.0.1:${ports.http};`)
    .replace(/ssl_certificate +\S+;/, `ssl_certificate ${dir}/cert.pem;`)
    .replace(/ssl_certificate_key +\S+;/, `ssl_certificate_key ${dir}/key.pem;`)
    .replace(
      'http {',
      `http {\n  access_log off;\n${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`).join('\n')}`,
    );
  return `daemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n${conf}`;
}

export interface GuideNginx {
  ports: { https: number; http: number };
  /** The proxy's address over TLS (a throwaway certificate: connect with rejectUnauthorized false). */
  httpsBase: string;
  /** What nginx wrote to its error log so far. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the guide's nginx in front of `upstreams` (host:port); resolves once /api/health answers through it over HTTP/2. */
export async function startGuideNginx(upstreams: string[]): Promise<GuideNginx> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vez-guide-nginx-'));
  await chmod(dir, 0o755); // nginx's workers may run as another user
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-keyout',
      `${dir}/key.pem`,
      '-out',
      `${dir}/cert.pem`,
    ],
    { stdio: 'ignore' },
  );
  const ports = { https: await freePort(), http: await freePort() };
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, await guideConfig(dir, ports, upstreams));
  const nginx: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const httpsBase = `https://127.0.0.1:${ports.https}`;

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (await answersOverH2(httpsBase)) break;
    if (Date.now() > deadline || nginx.exitCode !== null) throw new Error(`nginx did not come up:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    ports,
    httpsBase,
    errorLog: () => readFile(`${dir}/error.log`, 'utf8').catch(() => ''),
    async stop() {
      if (nginx.exitCode === null && nginx.signalCode === null) {
        const exited = new Promise((r) => nginx.once('exit', r));
        nginx.kill('SIGQUIT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function answersOverH2(base: string): Promise<boolean> {
  const session = http2.connect(base, { rejectUnauthorized: false });
  session.on('error', () => {});
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = session.request({ ':method': 'GET', ':path': '/api/health' });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      req.end();
    });
    return status === 200;
  } catch {
    return false;
  } finally {
    session.destroy();
  }
}
