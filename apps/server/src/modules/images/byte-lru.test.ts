import { describe, expect, it } from 'vitest';
import { ByteLru } from './byte-lru.js';

const entry = (n: number) => ({ bytes: Buffer.alloc(n) });

describe('ByteLru', () => {
  it('evicts the least recently used entries to stay within its byte budget', () => {
    const lru = new ByteLru(100);
    lru.set('a', entry(40));
    lru.set('b', entry(40));
    expect(lru.get('a')).toBeDefined(); // a is now the most recent
    lru.set('c', entry(40));
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    expect(lru.totalBytes).toBe(80);
  });

  it('keeps nothing larger than the whole budget, and replacing a key frees the old bytes', () => {
    const lru = new ByteLru(100);
    lru.set('big', entry(101));
    expect(lru.size).toBe(0);
    lru.set('a', entry(60));
    lru.set('a', entry(30));
    expect(lru.totalBytes).toBe(30);
    lru.delete('a');
    expect(lru.totalBytes).toBe(0);
  });
});
