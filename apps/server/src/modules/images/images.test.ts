import http from 'node:http';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, countRows } from '../../../test/fixtures.js';
import { BISTRO_HOST, CLUB_HOST } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

const isWebp = (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';

describe.each(stores)('image host on $name', (store) => {
  const t = useTestApp(store);
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves a bundled SVG as it is, with a CSP that keeps it inert and a day of caching', async () => {
    const res = await get('/images/demo/bistro-logo.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toContain('Bistrô Demo');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers.etag).toMatch(/^"[\w-]{32}"$/);
  });

  it('serves every image the demo themes and settings name', async () => {
    const paths = new Set<string>();
    for (const id of [DEMO_BISTRO_ID, DEMO_CLUB_ID]) {
      const theme = (await get(`/api/themes/waitlist-api/${id}`)).body;
      for (const m of theme.matchAll(/"(\/demo\/[^"]+)"/g)) paths.add(`/images${m[1]}`);
    }
    paths.add('/images/demo/menu.svg');
    paths.add('/images/placeholder-header.svg');
    expect(paths.size).toBeGreaterThanOrEqual(9);
    for (const p of paths) {
      const res = await get(`${p}?quality=70&format=webp`);
      expect(res.statusCode, p).toBe(200);
      expect(isWebp(res.rawPayload), p).toBe(true);
    }
  });

  it('converts to webp with ?quality=70&format=webp, rasterising the SVG', async () => {
    const res = await get('/images/demo/bistro-banner-1.svg?quality=70&format=webp');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(isWebp(res.rawPayload)).toBe(true);
    expect(res.headers['content-security-policy']).not.toBe("default-src 'none'; style-src 'unsafe-inline'");
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(2000); // twice the 1200 viewBox, capped at 2000
  });

  it('honours w= and the other formats', async () => {
    const small = await get('/images/demo/clube-small.svg?format=png&w=320');
    expect(small.headers['content-type']).toBe('image/png');
    expect((await sharp(small.rawPayload).metadata()).width).toBe(320);
    const avif = await get('/images/demo/clube-logo.svg?quality=50&format=avif&w=200');
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.rawPayload.subarray(4, 12).toString('latin1')).toBe('ftypavif');
    const jpeg = await get('/images/demo/clube-logo.svg?format=jpeg');
    expect(jpeg.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('answers 304 to a matching If-None-Match, and the image to a stale one', async () => {
    const url = '/images/demo/bistro-banner-2.svg?quality=70&format=webp';
    const first = await get(url);
    const etag = String(first.headers.etag);
    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get(url, { 'if-none-match': `"stale", W/${etag}` })).statusCode).toBe(304);
    const stale = await get(url, { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(first.rawPayload)).toBe(true);
    // Another variant of the same file has another tag.
    expect((await get('/images/demo/bistro-banner-2.svg?quality=40&format=webp')).headers.etag).not.toBe(etag);
  });

  // Sent over a real socket: app.inject (like browsers) would normalise `..` before the server saw it.
  let origin: string | undefined;
  const rawGet = async (path: string) => {
    origin ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = origin;
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${address}/`, { path, method: 'GET' }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  };

  it('sends one representation per URL, so the strong ETag holds', async () => {
    const plain = await get('/images/demo/menu.svg');
    const asked = await get('/images/demo/menu.svg', { 'accept-encoding': 'gzip, br' });
    expect(asked.headers['content-encoding']).toBeUndefined();
    expect(asked.headers.etag).toBe(plain.headers.etag);
    expect(asked.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it.each([
    '/images/../package.json',
    '/images/demo/../../package.json',
    '/images/demo/../../../server/package.json',
    '/images/..%2fpackage.json',
    '/images/demo/..%2f..%2fpackage.json',
    '/images/%2e%2e/%2e%2e/package.json',
    '/images/demo/%2e%2e/%2e%2e/src/app.ts',
    '/images/demo%5c..%5c..%5cpackage.json',
    '/images/demo/..%5c..%5cpackage.json',
    '/images/%2fetc%2fpasswd',
    '/images//etc/passwd',
    '/images/demo/.hidden.svg',
    '/images/demo/bistro-logo.svg%00.png',
  ])('refuses the traversal %s with a 404', async (path) => {
    const res = await rawGet(path);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers 404 in the error model for unknown images', async () => {
    for (const url of [
      '/images/demo/nope.svg',
      '/images/demo/menu.txt',
      '/images/uploads/AAAAAAAAAAAAAAAAAAAAAA.png',
      '/images/uploads/x.png',
    ]) {
      const res = await get(`${url}?quality=70&format=webp`);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
  });

  it.each([
    ['quality=0&format=webp', 'quality'],
    ['quality=101&format=webp', 'quality'],
    ['quality=abc&format=webp', 'quality'],
    ['quality=70.5&format=webp', 'quality'],
    ['quality=70&quality=80&format=webp', 'quality'],
    ['quality=70&format=bmp', 'format'],
    ['quality=70&format=', 'format'],
    ['format=webp&w=0', 'w'],
    ['format=webp&w=2001', 'w'],
  ])('answers 400 to ?%s naming %s', async (query, field) => {
    const res = await get(`/images/demo/bistro-logo.svg?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, code: 'MALFORMED_REQUEST', field });
  });

  const uploadPng = async (venue: string, headers: Record<string, string>) => {
    const boundary = 'vezb';
    const file = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#9a3412' } })
      .png()
      .toBuffer();
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`;
    return t.app.inject({
      method: 'POST',
      url: `/api/host/venues/${venue}/images`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
      payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
  };
  const countImages = () => countRows(t.db, 'images');

  it('refuses uploads without a staff session of that venue', async () => {
    expect((await uploadPng(DEMO_BISTRO_ID, {})).statusCode).toBe(401);
    const clubHost = await t.staffCookie(CLUB_HOST);
    const other = await uploadPng(DEMO_BISTRO_ID, { cookie: clubHost });
    expect(other.statusCode).toBe(403);
    expect(await countImages()).toBe(0);
  });

  it('a logged-in host uploads an image; the diner gets it as webp from the image host', async () => {
    const res = await uploadPng(DEMO_BISTRO_ID, { cookie: await t.staffCookie(BISTRO_HOST) });
    expect(res.statusCode).toBe(201);
    const { path } = res.json() as { path: string };
    expect(path).toMatch(/^\/uploads\/[\w-]{22}\.png$/);
    const served = await get(`${t.config.IMAGE_BASE_URL}${path}?quality=70&format=webp`);
    expect(served.statusCode).toBe(200);
    expect(isWebp(served.rawPayload)).toBe(true);
    expect(await countImages()).toBe(1);
  });
});
