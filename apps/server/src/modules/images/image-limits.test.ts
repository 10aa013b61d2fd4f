import zlib from 'node:zlib';
import { HEADER_IMAGE_WIDTHS, IMAGE_QUALITY } from '@vez/contract';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';

import { stores } from '../../../test/stores.js';
import type { Database } from '../../db/types.js';
import { createImageHost } from './image-host.service.js';
import { IMAGE_QUALITIES, IMAGE_WIDTHS, snapQuality, snapWidth } from './image-variants.js';
import { sharpGate } from './sharp-gate.js';

describe('allowed image variants', () => {
  it('keep every width and quality the web app asks for as they are', () => {
    for (const w of HEADER_IMAGE_WIDTHS) expect(snapWidth(w)).toBe(w);
    expect(snapQuality(IMAGE_QUALITY)).toBe(IMAGE_QUALITY);
    for (const w of IMAGE_WIDTHS) expect(snapWidth(w)).toBe(w);
    for (const q of IMAGE_QUALITIES) expect(snapQuality(q)).toBe(q);
  });

  it('snap any other width up to the next allowed one, and a quality to the nearest', () => {
    expect([1, 101, 300, 321, 799, 801, 1999, 2000].map(snapWidth)).toEqual([100, 200, 320, 480, 800, 1200, 2000, 2000]);
    expect([1, 34, 35, 71, 100].map(snapQuality)).toEqual([30, 30, 40, 70, 90]);
  });

  it('the cache cannot be filled with invented variants: 40 widths and 100 qualities make at most the allowed set', async () => {
    const host = createImageHost({} as Kysely<Database>);
    for (let w = 1; w <= 2000; w += 50) await host.serve('demo/clube-logo.svg', { format: 'png', width: w });
    expect(host.cache.size).toBeLessThanOrEqual(IMAGE_WIDTHS.length);
    const before = host.cache.size;
    for (let q = 1; q <= 100; q += 1) await host.serve('demo/clube-logo.svg', { format: 'webp', quality: q, width: 100 });
    expect(host.cache.size - before).toBeLessThanOrEqual(IMAGE_QUALITIES.length);
  });
});

/** A PNG of a few bytes whose header declares width×height (pixels it would take gigabytes to hold). */
function pngDeclaring(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An SVG of a few KB that librsvg needs tens of seconds (or minutes) to draw: huge blurs on full-size shapes. */
const slowSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="f"><feGaussianBlur stdDeviation="500"/></filter>${Array.from(
  { length: 200 },
  (_, i) =>
    `<rect x="${i}" y="${i}" width="1900" height="1900" fill="#${(i * 99_999).toString(16).slice(-6).padStart(6, '0')}" filter="url(#f)"/>`,
).join('')}</svg>`;

describe.each(stores)('image host limits on $name', (store) => {
  const t = useTestApp(store, { IMAGE_CONVERSIONS_PER_ADDRESS_PER_MIN: '3', IMAGE_CONVERT_TIMEOUT_SECONDS: '1' });
  const get = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress });
  const upload = async (file: Buffer, type: string) => {
    const boundary = 'vezlimits';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\nContent-Type: ${type}\r\n\r\n`;
    return t.app.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/images`,
      headers: { cookie: await t.staffCookie(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      remoteAddress: '10.90.0.1',
    });
  };
  const countImages = async () => (await t.db.kysely.selectFrom('images').select('id').execute()).length;

  it('a width or quality outside the set is snapped: the same bytes and entity tag as the allowed variant', async () => {
    const asked = await get('/images/demo/clube-small.svg?format=png&w=301&quality=72', '10.80.0.1');
    const allowed = await get('/images/demo/clube-small.svg?format=png&w=320&quality=70', '10.80.0.1');
    expect(asked.statusCode).toBe(200);
    expect((await sharp(asked.rawPayload).metadata()).width).toBe(320);
    expect(asked.headers.etag).toBe(allowed.headers.etag);
  });

  it('bounds conversions per client address (429 + Retry-After); cached answers and other addresses still served', async () => {
    const a = '10.80.0.2';
    const variants = [100, 200, 480, 640].map((w) => `/images/demo/bistro-logo.svg?format=webp&w=${w}`);
    for (const url of variants.slice(0, 3)) expect((await get(url, a)).statusCode).toBe(200);
    const limited = await get(variants[3]!, a);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Already converted: no conversion, no count.
    expect((await get(variants[0]!, a)).statusCode).toBe(200);
    expect((await get('/images/demo/bistro-logo.svg?format=webp&w=199', a)).statusCode).toBe(200);
    expect((await get(variants[3]!, '10.80.0.3')).statusCode).toBe(200);
  });

  it.each([
    ['a PNG', () => pngDeclaring(30_000, 30_000), 'image/png'],
    [
      'an SVG',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="30000" height="30000"><rect width="30000" height="30000"/></svg>'),
      'image/svg+xml',
    ],
  ])('refuses %s declaring 30000×30000 pixels with 413 at once', async (_name, file, type) => {
    const started = Date.now();
    const res = await upload(file(), type);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await countImages()).toBe(0);
  });

  it('refuses an SVG that takes longer than IMAGE_CONVERT_TIMEOUT_SECONDS to draw (422), answering other requests meanwhile', async () => {
    const started = Date.now();
    const pending = upload(Buffer.from(slowSvg), 'image/svg+xml');
    // While it is being drawn (its conversion holds a slot of the gate) the server answers others at once.
    while (sharpGate.active === 0) await new Promise((r) => setImmediate(r));
    const healthStarted = Date.now();
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(Date.now() - healthStarted).toBeLessThan(500);
    const res = await pending;
    const took = Date.now() - started;
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'file', message: expect.stringMatching(/longer than 1 s/) });
    expect(took).toBeLessThan(4000);
    expect(await countImages()).toBe(0);
    // Its process is gone: the slot is free again and a normal upload goes through.
    await sharpGate.idle();
    expect(sharpGate.active).toBe(0);
    const ok = await upload(
      await sharp({ create: { width: 40, height: 20, channels: 3, background: '#123456' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    expect(ok.statusCode).toBe(201);
  });

  it.each([
    [
      'a DOCTYPE with entities',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&b;</text></svg>',
      415,
    ],
    ['over 1 MB of text', `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!-- ${'x'.repeat(1024 * 1024)} --></svg>`, 413],
    [
      'gzip compression (svgz)',
      zlib.gzipSync(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!-- ${'x'.repeat(4 * 1024 * 1024)} --></svg>`),
      415,
    ],
  ])('refuses an SVG with %s before parsing it', async (_name, svg, status) => {
    const res = await upload(Buffer.from(svg), 'image/svg+xml');
    expect(res.statusCode).toBe(status);
    expect(res.json().field).toBe('file');
  });
});
