import { SESSION_LOCK_MS, phoneDigits } from '@vez/contract';

/**
 * The browser session lock of spec section 3: a map in localStorage keyed by venue id plus the
 * phone's digits, with a timestamp (and the entry it produced, so a repeat submit within 10
 * minutes shows that entry instead of joining twice). Expired keys are cleared on every read.
 */
export const SESSION_LOCK_STORAGE_KEY = 'waitlistSessionLock';

export interface SessionLock {
  timestamp: number;
  waitlistId: string;
}

type LockMap = Record<string, SessionLock>;

export const sessionLockKey = (venueId: string, phone: string) => `${venueId}${phoneDigits(phone)}`;

function readMap(now: number): LockMap {
  let map: LockMap = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SESSION_LOCK_STORAGE_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') map = parsed as LockMap;
  } catch {
    map = {};
  }
  const live = Object.fromEntries(
    Object.entries(map).filter(([, lock]) => typeof lock?.timestamp === 'number' && now - lock.timestamp < SESSION_LOCK_MS),
  );
  writeMap(live);
  return live;
}

function writeMap(map: LockMap): void {
  try {
    if (Object.keys(map).length === 0) localStorage.removeItem(SESSION_LOCK_STORAGE_KEY);
    else localStorage.setItem(SESSION_LOCK_STORAGE_KEY, JSON.stringify(map));
  } catch {
    // Storage disabled: the server's own repeat-join rule still prevents a second entry.
  }
}

export function findSessionLock(venueId: string, phone: string, now = Date.now()): SessionLock | undefined {
  return readMap(now)[sessionLockKey(venueId, phone)];
}

export function writeSessionLock(venueId: string, phone: string, waitlistId: string, now = Date.now()): void {
  const map = readMap(now);
  map[sessionLockKey(venueId, phone)] = { timestamp: now, waitlistId };
  writeMap(map);
}
