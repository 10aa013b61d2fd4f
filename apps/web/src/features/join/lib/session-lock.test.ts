import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_LOCK_STORAGE_KEY, findJoinProof, findSessionLock, sessionLockKey, writeSessionLock } from './session-lock';

const venue = '6553f1a2b3c4d5e6f7a8b901';

describe('browser session lock (spec sections 3 and 9)', () => {
  beforeEach(() => localStorage.clear());

  it('is keyed by venue id plus the phone digits', () => {
    expect(sessionLockKey(venue, '+55 (11) 98765-4321')).toBe(`${venue}5511987654321`);
  });

  it('holds for 10 minutes, then is cleared', () => {
    const t0 = 1_000_000;
    writeSessionLock(venue, '+55 11 98765-4321', 'entry-1', t0);
    expect(findSessionLock(venue, '+5511987654321', t0 + 599_999)).toEqual({ timestamp: t0, waitlistId: 'entry-1' });
    expect(findSessionLock('6553f1a2b3c4d5e6f7a8b902', '+5511987654321', t0 + 1)).toBeUndefined();
    expect(findSessionLock(venue, '+5511987654321', t0 + 600_000)).toBeUndefined();
    expect(localStorage.getItem(SESSION_LOCK_STORAGE_KEY)).toBeNull();
  });

  it('keeps the join proof for a day after the lock itself ends (docs/product.md §3)', () => {
    const t0 = 1_000_000;
    writeSessionLock(venue, '+55 11 98765-4321', 'entry-1', t0, 'proof-1');
    expect(findJoinProof(venue, '+5511987654321', t0 + 1)).toBe('proof-1');
    expect(findSessionLock(venue, '+5511987654321', t0 + 600_000)).toBeUndefined();
    expect(findJoinProof(venue, '+5511987654321', t0 + 600_000)).toBe('proof-1');
    expect(findJoinProof(venue, '+5511987654321', t0 + 24 * 3_600_000)).toBeUndefined();
    expect(localStorage.getItem(SESSION_LOCK_STORAGE_KEY)).toBeNull();
  });

  it('survives broken storage content', () => {
    localStorage.setItem(SESSION_LOCK_STORAGE_KEY, '{not json');
    expect(findSessionLock(venue, '+5511987654321')).toBeUndefined();
  });
});
