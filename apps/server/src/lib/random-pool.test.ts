import { describe, expect, it } from 'vitest';
import { randomBase64url } from './random-pool.js';

describe('random bytes drawn from a pool', () => {
  it('gives each draw fresh bytes of the asked length, across refills of the pool', () => {
    const seen = new Set<string>();
    // 32 bytes at a time, well past several refills of the 4 KB pool, with odd sizes between.
    for (let i = 0; i < 1000; i++) {
      const draw = randomBase64url(32);
      expect(draw).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(draw);
      expect(randomBase64url(7)).toMatch(/^[A-Za-z0-9_-]{10}$/);
    }
    expect(seen.size).toBe(1000);
  });

  it('decodes to the asked number of bytes, not all alike', () => {
    const bytes = Buffer.from(randomBase64url(4096), 'base64url');
    expect(bytes.length).toBe(4096);
    expect(new Set(bytes).size).toBeGreaterThan(200);
  });
});
