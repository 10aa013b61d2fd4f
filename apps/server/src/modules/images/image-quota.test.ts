import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, countRows } from '../../../test/fixtures.js';
import { useTestApp } from '../../../test/harness.js';
import { BISTRO_DOOR, BISTRO_HOST, CLUB_HOST, hostApi } from '../../../test/staff-session.js';
import { stores } from '../../../test/stores.js';

const MAX_IMAGES = 3;

/** A PNG of noise: it does not compress, so its stored size is about width × height × 3 bytes. */
const noisePng = (side: number) =>
  sharp(Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 7919 + ((i * i) % 251)) % 256)), {
    raw: { width: side, height: side, channels: 3 },
  })
    .png()
    .toBuffer();

/** docs/decisions/026: a venue's images have a quota of count and bytes; past it, 409 naming the limit. */
describe.each(stores)('image quota per venue on $name', (store) => {
  const t = useTestApp(store, { IMAGE_MAX_PER_VENUE: String(MAX_IMAGES), IMAGE_MAX_BYTES_PER_VENUE: String(200 * 1024) });
  const owner = () => t.staffCookie(BISTRO_HOST);

  const upload = async (venue: string, cookie: string, file: Buffer) => {
    const boundary = 'vezq';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`;
    return t.app.inject({
      method: 'POST',
      url: `/api/host/venues/${venue}/images`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie },
      payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    });
  };
  const remove = (venue: string, cookie: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/host/venues/${venue}/images/${id}`, headers: { cookie } });
  const idOf = (path: string) => /^\/uploads\/([\w-]{22})\./.exec(path)?.[1] ?? '';
  const stored = (venue: string) => countRows(t.db, 'images', { venue_id: venue });

  it(`refuses the upload past ${MAX_IMAGES} images with 409 naming the limit and stores nothing; a deletion frees a place`, async () => {
    const small = await noisePng(8);
    const paths: string[] = [];
    for (let i = 0; i < MAX_IMAGES; i++) {
      const res = await upload(DEMO_BISTRO_ID, await owner(), small);
      expect(res.statusCode, res.body).toBe(201);
      paths.push(res.json().path as string);
    }
    const refused = await upload(DEMO_BISTRO_ID, await owner(), small);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      statusCode: 409,
      code: 'IMAGE_QUOTA_EXCEEDED',
      field: 'file',
      message: `This venue has ${MAX_IMAGES} images stored; the most is ${MAX_IMAGES}. Images the venue no longer shows make room an hour after their upload.`,
    });
    expect(await stored(DEMO_BISTRO_ID)).toBe(MAX_IMAGES);

    // Another venue has its own quota.
    expect((await upload(DEMO_CLUB_ID, await t.staffCookie(CLUB_HOST), small)).statusCode).toBe(201);

    // Only the venue's owners delete, only the venue's images, and a deleted image is gone.
    const first = idOf(paths[0]!);
    expect((await remove(DEMO_BISTRO_ID, await t.staffCookie(BISTRO_DOOR), first)).statusCode).toBe(403);
    expect((await remove(DEMO_BISTRO_ID, await owner(), 'A'.repeat(22))).statusCode).toBe(404);
    expect((await remove(DEMO_BISTRO_ID, await owner(), first)).statusCode).toBe(204);
    expect((await remove(DEMO_BISTRO_ID, await owner(), first)).statusCode).toBe(404);
    expect(await stored(DEMO_BISTRO_ID)).toBe(MAX_IMAGES - 1);
    expect((await upload(DEMO_BISTRO_ID, await owner(), small)).statusCode).toBe(201);
    for (const path of await t.db.kysely.selectFrom('images').select('id').where('venue_id', '=', DEMO_BISTRO_ID).execute()) {
      expect((await remove(DEMO_BISTRO_ID, await owner(), path.id)).statusCode).toBe(204);
    }
  });

  it('at the quota, the oldest upload the venue no longer shows makes room once an hour old; one it shows, or a newer one, never', async () => {
    const small = await noisePng(8);
    const paths: string[] = [];
    for (let i = 0; i < MAX_IMAGES; i++) {
      const res = await upload(DEMO_BISTRO_ID, await owner(), small);
      expect(res.statusCode, res.body).toBe(201);
      paths.push(res.json().path as string);
      t.clock.now += 1_000;
    }
    // The first is the venue's logo; the others were replaced or never saved.
    const saved = await hostApi(t).patch('/settings', { theme: { logo: { vertical: `/images${paths[0]}` } } });
    expect(saved.statusCode, saved.body).toBe(200);
    // Within the hour an upload may be one the owner is about to save: nothing makes room.
    expect((await upload(DEMO_BISTRO_ID, await owner(), small)).statusCode).toBe(409);
    t.clock.now += 3_600_000;
    const next = await upload(DEMO_BISTRO_ID, await owner(), small);
    expect(next.statusCode, next.body).toBe(201);
    const left = (await t.db.kysely.selectFrom('images').select('id').where('venue_id', '=', DEMO_BISTRO_ID).execute()).map((r) => r.id);
    expect(left.sort()).toEqual([idOf(paths[0]!), idOf(paths[2]!), idOf(next.json().path as string)].sort());
    for (const id of left) await t.db.kysely.deleteFrom('images').where('id', '=', id).execute();
  });

  it('refuses the upload that would pass the bytes a venue may store, naming both sizes', async () => {
    const big = await noisePng(160); // about 75 KB stored
    expect((await upload(DEMO_BISTRO_ID, await owner(), big)).statusCode).toBe(201);
    expect((await upload(DEMO_BISTRO_ID, await owner(), big)).statusCode).toBe(201);
    const refused = await upload(DEMO_BISTRO_ID, await owner(), big);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'IMAGE_QUOTA_EXCEEDED', field: 'file' });
    expect(refused.json().message).toMatch(/^This venue's images take \d+ KB, and this one \d+ KB more; the most is 200 KB\./);
    expect(await stored(DEMO_BISTRO_ID)).toBe(2);
  });
});
