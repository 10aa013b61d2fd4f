import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { createImageHost } from './image-host.service.js';

// Bundled images only: the database is never asked.
const noDb = {} as Kysely<Database>;

describe('image host service', () => {
  it('answers 429 with Retry-After rather than queue more conversions than it allows', async () => {
    const host = createImageHost(noDb, { maxPending: 0 });
    const error = await host.serve('demo/bistro-logo.svg', { format: 'webp' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, headers: { 'retry-after': '1' } });
  });

  it('shares one conversion between concurrent requests and serves repeats from its cache', async () => {
    const host = createImageHost(noDb, { maxPending: 1 });
    const [a, b] = await Promise.all([
      host.serve('demo/clube-logo.svg', { format: 'png', width: 100 }),
      host.serve('demo/clube-logo.svg', { format: 'png', width: 100 }),
    ]);
    expect(a).toBe(b);
    expect(host.cache.size).toBe(1);
    expect(await host.serve('demo/clube-logo.svg', { format: 'png', width: 100 })).toBe(a);
  });

  it('keys the cache by the variant: another width is another entry', async () => {
    const host = createImageHost(noDb);
    const small = await host.serve('demo/clube-logo.svg', { format: 'webp', width: 100 });
    const large = await host.serve('demo/clube-logo.svg', { format: 'webp', width: 400 });
    expect(small.etag).not.toBe(large.etag);
    expect(host.cache.size).toBe(2);
    expect(host.cache.totalBytes).toBe(small.bytes.length + large.bytes.length);
  });
});
