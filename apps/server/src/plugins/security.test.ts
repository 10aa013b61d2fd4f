import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../test/fixtures.js';
import { useTestApp } from '../../test/harness.js';
import { sqliteStore } from '../../test/stores.js';
import helmet from 'helmet';
import { helmetOptions } from './security.js';

// Headers and robots.txt (docs/security.md). e2e/csp.e2e.ts checks the real build in Chromium.

const BOOT_STYLE = 'body{margin:0}.boot__hero{aspect-ratio:3}';
const shell = `<!doctype html><html><head><!--vez-config--><style>${BOOT_STYLE}</style></head><body><div id="root"><div class="boot__hero"><!--vez-boot-hero--></div></div></body></html>`;
const bootHash = `'sha256-${createHash('sha256').update(BOOT_STYLE).digest('base64')}'`;

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.split(' ')[0] === name);

/** The rule of robots.txt that decides `url` for every crawler: the longest matching prefix wins. */
function crawlable(robots: string, url: string): boolean {
  const rules = robots
    .split('\n')
    .map((line) => line.match(/^(Allow|Disallow):\s*(\S*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && m[2] !== '')
    .filter((m) => url.startsWith(m[2]!))
    .sort((a, b) => b[2]!.length - a[2]!.length);
  return rules[0]?.[1] !== 'Disallow';
}

describe('security headers and robots.txt with a web build', () => {
  let dist: string;
  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'vez-headers-'));
    fs.writeFileSync(path.join(dist, 'index.html'), shell);
    // A build of before: its own robots.txt, which let every page be crawled.
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));
  const t = useTestApp(sqliteStore, () => ({ WEB_DIST_DIR: dist }));
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const pages = [`/remote-waitlist/${DEMO_BISTRO_ID}`, '/host', `/api/venues/${DEMO_BISTRO_ID}`, '/api/nothing-here'];

  it("allows no inline style but the shell's boot style, by its hash, and no style attribute", async () => {
    for (const url of pages) {
      const csp = String((await get(url)).headers['content-security-policy']);
      expect(directive(csp, 'style-src'), url).toBe(`style-src 'self' ${bootHash}`);
      expect(directive(csp, 'style-src-attr'), url).toBe("style-src-attr 'none'");
      expect(csp, url).not.toContain('unsafe-inline');
    }
  });

  it("carries every header helmet's own middleware writes for these options, worked out once at start", async () => {
    // What helmet would write on each request, run here on a response of its own.
    const expected = new Map<string, string>();
    const res = {
      setHeader: (name: string, value: unknown) => expected.set(name.toLowerCase(), String(value)),
      removeHeader: (name: string) => expected.delete(name.toLowerCase()),
    };
    helmet(helmetOptions(t.app))({} as never, res as never, () => {});
    expect(expected.size).toBeGreaterThan(8);
    for (const url of [...pages, '/robots.txt']) {
      const headers = (await get(url)).headers;
      for (const [name, value] of expected) expect(headers[name], `${url} ${name}`).toBe(value);
      expect(headers['x-powered-by'], url).toBeUndefined();
    }
  });

  it('denies the browser features the app does not use, keeping those it does', async () => {
    for (const url of pages) {
      const policy = String((await get(url)).headers['permissions-policy']);
      const features = Object.fromEntries(policy.split(', ').map((p) => p.split('=') as [string, string]));
      for (const denied of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'browsing-topics', 'display-capture', 'serial', 'hid'])
        expect(features[denied], `${url} ${denied}`).toBe('()');
      expect(features, url).toMatchObject({ autoplay: '(self)', 'clipboard-write': '(self)' });
      expect(features, url).not.toHaveProperty('web-share');
    }
  });

  it('serves robots.txt: crawlers may read join pages and the terms, never a party, the console or the API', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^User-agent: \*$/m);
    for (const url of [`/remote-waitlist/${DEMO_BISTRO_ID}`, '/terms-service', '/']) expect(crawlable(res.body, url), url).toBe(true);
    for (const url of [
      '/waitlist/0123456789abcdef0123456789abcdef',
      '/host',
      `/host/${DEMO_BISTRO_ID}/queue`,
      '/host/invite/x',
      '/api/venues',
      '/metrics',
    ])
      expect(crawlable(res.body, url), url).toBe(false);
  });
});

describe('security headers and robots.txt without a web build', () => {
  const t = useTestApp(sqliteStore, { WEB_DIST_DIR: path.join(os.tmpdir(), 'vez-no-build-here') });

  it('allows no inline style at all, and still answers robots.txt', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Disallow: /waitlist/');
    expect(directive(String(res.headers['content-security-policy']), 'style-src')).toBe("style-src 'self'");
    expect(res.headers['permissions-policy']).toContain('camera=()');
  });
});
