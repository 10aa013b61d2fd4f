import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, startServerProcess } from './server-process.js';
import { BISTRO_HOST, DEMO_PASSWORD } from './staff-session.js';

/** Safe by default (docs/product.md §9): only `npm start` is the demo. */
describe('a server started without --demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-safe-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  // As `npm run serve` starts it: DEMO unset (empty counts as unset), a fresh SQLite store.
  const serveEnv = (name: string) => ({ DEMO: '', NODE_ENV: 'development', DATABASE_URL: `file:${path.join(dir, `${name}.db`)}` });

  it('npm start is the demo, explicitly', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.start).toMatch(/main\.ts --demo$/);
    expect(scripts.serve).not.toContain('--demo');
  });

  it('has no outbox route and no demo logins', { timeout: 90_000 }, async () => {
    const server = await startServerProcess(serveEnv('serve'));
    try {
      expect((await fetch(`${server.url}/api/dev/outbox`)).status).toBe(404);
      const login = await fetch(`${server.url}/api/host/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: BISTRO_HOST, password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('is production with NODE_ENV unset: an unsigned SMS webhook is refused (docs/security.md)', { timeout: 90_000 }, async () => {
    const server = await startServerProcess({ ...serveEnv('unset'), NODE_ENV: '' });
    try {
      const res = await fetch(`${server.url}/api/sms/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ From: '+5511987650001', Body: 'oi' }).toString(),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toMatch(/SMS_AUTH_TOKEN/);
    } finally {
      await server.stop();
    }
  });

  it('refuses to listen beyond loopback without an https PUBLIC_BASE_URL, naming it', { timeout: 90_000 }, async () => {
    for (const publicBaseUrl of ['', 'http://vez.example']) {
      const start = startServerProcess({ ...serveEnv('open'), HOST: '0.0.0.0', PUBLIC_BASE_URL: publicBaseUrl });
      await expect(start).rejects.toThrow(/exited with 78[\s\S]*PUBLIC_BASE_URL: must be an https URL/);
    }
  });

  it('listens beyond loopback with an https PUBLIC_BASE_URL', { timeout: 90_000 }, async () => {
    const server = await startServerProcess({ ...serveEnv('https'), HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://vez.example' });
    await server.stop();
  });
});
