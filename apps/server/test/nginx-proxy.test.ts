import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toE164 } from '../src/lib/phone.js';
import { DEMO_BISTRO_ID, DEMO_CLUB_ID, createBody, nextPhone } from './fixtures.js';
import { NGINX, type Nginx, hasNginx, startNginx } from './nginx.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

if (!hasNginx) console.warn(`SKIPPED nginx-proxy.test.ts: ${NGINX} is missing (install the nginx package; .ci/run must install it)`);

const LIMIT = 3;

/**
 * docs/security.md: behind a real nginx that appends the peer's address to X-Forwarded-For, two
 * server instances with TRUST_PROXY=1 key their limits on the real client, whatever it sends itself.
 */
describe.skipIf(!hasNginx)('rate limits behind nginx (TRUST_PROXY=1, two instances)', () => {
  let dir: string;
  let nginx: Nginx;
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
    nginx = await startNginx(servers.map((s) => s.url));
    base = nginx.base;
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
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
