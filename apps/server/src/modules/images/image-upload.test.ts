import { ErrorCode } from '@vez/contract';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type preHandlerAsyncHookHandler } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, countRows } from '../../../test/fixtures.js';
import { stores } from '../../../test/stores.js';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../lib/app-error.js';
import { collectRoutes } from '../docs/docs.routes.js';
import { registerErrorHandling } from '../../plugins/errors.js';
import { seedDemo } from '../../seed/demo.js';
import { imageHostRoutes } from './image-host.routes.js';
import { findImageById } from './images.repository.js';
import { imageUploadRoutes } from './images.routes.js';

// Above Fastify's 64 KB JSON body limit, to show uploads are not held to it.
const LIMIT = 400_000;

/** Stands in for the staff guard: the caller names the venue it is staff of. */
const testGuard: preHandlerAsyncHookHandler = async (request) => {
  const venue = request.headers['x-test-staff-of'];
  if (!venue) throw new AppError(ErrorCode.UNAUTHENTICATED);
  if (venue !== (request.params as { venueId?: string }).venueId) throw new AppError(ErrorCode.FORBIDDEN);
};

function multipart(file: Buffer, type: string, field = 'file') {
  const boundary = 'vezboundary7MA4YWxkTrZu0gW';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="upload"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#9a3412' } })
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: 'SecretCamera', Artist: 'Ana Souza' } } })
    .toBuffer();

describe.each(stores)('image upload on $name', (store) => {
  let app: FastifyInstance;
  let db: Db;
  beforeAll(async () => {
    db = await store.open();
    await seedDemo(db, Date.now());
    app = Fastify({ logger: false });
    app.decorate('config', loadConfig({ NODE_ENV: 'test', IMAGE_MAX_UPLOAD_BYTES: String(LIMIT) }));
    app.decorate('db', db);
    // As buildApp does: contract validation in the routes, plain JSON out, the ApiError schema for docs.
    app.setValidatorCompiler(() => (data) => ({ value: data }));
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    collectRoutes(app);
    registerErrorHandling(app);
    await app.register(imageUploadRoutes, { prefix: '/api', guard: testGuard });
    // The image host counts conversions with the rate-limit plugin's store, as in buildApp.
    await app.register(rateLimit, { global: false });
    await app.register(imageHostRoutes);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const upload = (file: Buffer, type: string, venue = DEMO_BISTRO_ID, staffOf: string | null = venue) =>
    app.inject({
      method: 'POST',
      url: `/api/host/venues/${venue}/images`,
      ...multipart(file, type),
      headers: { ...multipart(file, type).headers, ...(staffOf ? { 'x-test-staff-of': staffOf } : {}) },
    });
  const countImages = () => countRows(db, 'images');

  it('stores a PNG without its EXIF and serves it back as webp', async () => {
    const original = await png(40, 30);
    expect(original.includes('SecretCamera')).toBe(true);
    const res = await upload(original, 'image/png');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ contentType: 'image/png', width: 40, height: 30 });
    expect(body.path).toMatch(/^\/uploads\/[\w-]{22}\.png$/);

    const id = body.path.slice('/uploads/'.length, -'.png'.length);
    const row = await findImageById(db.kysely, id);
    expect(row).toMatchObject({ venue_id: DEMO_BISTRO_ID, content_type: 'image/png', width: 40, height: 30 });
    expect(Buffer.isBuffer(row?.bytes)).toBe(true);
    expect(row?.size).toBe(row?.bytes.length);
    expect(row?.bytes.includes('SecretCamera')).toBe(false);
    expect((await sharp(row?.bytes).metadata()).exif).toBeUndefined();

    const webp = await app.inject({ method: 'GET', url: `/images${body.path}?quality=70&format=webp` });
    expect(webp.statusCode).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(webp.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(webp.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const again = await app.inject({
      method: 'GET',
      url: `/images${body.path}?quality=70&format=webp`,
      headers: { 'if-none-match': String(webp.headers.etag) },
    });
    expect(again.statusCode).toBe(304);

    const raw = await app.inject({ method: 'GET', url: `/images${body.path}` });
    expect(raw.headers['content-type']).toBe('image/png');
    expect(raw.rawPayload.equals(row?.bytes as Buffer)).toBe(true);
    expect((await app.inject({ method: 'GET', url: `/images/uploads/${id}.jpg` })).statusCode).toBe(404);
  });

  it('accepts a photo larger than the JSON body limit, up to IMAGE_MAX_UPLOAD_BYTES', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 251)), {
      raw: { width: 300, height: 300, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(200_000);
    expect(noise.length).toBeLessThan(LIMIT);
    const res = await upload(noise, 'image/png');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 300, height: 300 });
  });

  it('refuses a file over IMAGE_MAX_UPLOAD_BYTES with 413 and stores nothing', async () => {
    const before = await countImages();
    const res = await upload(Buffer.alloc(LIMIT + 1, 7), 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'file' });
    expect(await countImages()).toBe(before);
  });

  it('refuses more than 6000×6000 pixels with 413', async () => {
    const res = await upload(await png(6001, 4), 'image/png');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toContain('6000');
  });

  it('refuses a text file with 415, whatever type it declares', async () => {
    const before = await countImages();
    for (const type of ['text/plain', 'image/png']) {
      const res = await upload(Buffer.from('just some words, not an image'), type);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#9a3412' } })
      .jpeg()
      .toBuffer();
    const truncated = await upload(jpeg.subarray(0, 200), 'image/jpeg');
    expect(truncated.statusCode).toBe(415);
    expect(truncated.json().message).toMatch(/damaged|not a/);
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect((await upload(tiff, 'image/tiff')).statusCode).toBe(415);
    expect(await countImages()).toBe(before);
  });

  it('goes by the bytes, not the declared type: a GIF declared as PNG is stored as GIF', async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#1e3a5f' } })
      .gif()
      .toBuffer();
    const res = await upload(gif, 'image/png');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ contentType: 'image/gif' });
    expect(res.json().path).toMatch(/\.gif$/);
  });

  it('rasterises an SVG upload, so no script in it is ever served', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><script>alert(1)</script><rect width="120" height="60" fill="#1e3a5f"/></svg>',
    );
    const res = await upload(svg, 'image/svg+xml');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ contentType: 'image/png', width: 240, height: 120 });
    const served = await app.inject({ method: 'GET', url: `/images${res.json().path}` });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.includes('script')).toBe(false);
  });

  it('answers the error model for a missing file, a JSON body, and unknown or malformed venues', async () => {
    const noFile = await app.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/images`,
      ...multipart(Buffer.from('x'), 'text/plain', 'other'),
      headers: { ...multipart(Buffer.from('x'), 'text/plain', 'other').headers, 'x-test-staff-of': DEMO_BISTRO_ID },
    });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json()).toMatchObject({ code: 'VALIDATION_FAILED', field: 'file' });
    const boundary = 'b0undary';
    const fieldsOnly = await app.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/images`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-test-staff-of': DEMO_BISTRO_ID },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nlogo\r\n--${boundary}--\r\n`,
    });
    expect(fieldsOnly.statusCode).toBe(422);
    const json = await app.inject({
      method: 'POST',
      url: `/api/host/venues/${DEMO_BISTRO_ID}/images`,
      headers: { 'x-test-staff-of': DEMO_BISTRO_ID },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const unknown = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    expect((await upload(await png(4, 4), 'image/png', unknown)).statusCode).toBe(404);
    expect((await upload(await png(4, 4), 'image/png', 'nope')).json()).toMatchObject({ code: 'INVALID_VENUEID_FORMAT' });
  });

  it('runs the guard: no session 401, staff of another venue 403', async () => {
    const before = await countImages();
    expect((await upload(await png(4, 4), 'image/png', DEMO_BISTRO_ID, null)).statusCode).toBe(401);
    expect((await upload(await png(4, 4), 'image/png', DEMO_BISTRO_ID, DEMO_CLUB_ID)).statusCode).toBe(403);
    expect(await countImages()).toBe(before);
  });
});
