import { JOIN_PROOF_KEEP_MS, SESSION_LOCK_MS, phoneDigits } from '@vez/contract';

/**
 * The browser session lock of docs/product.md §13: a map in localStorage keyed by venue id plus the
 * phone's digits, with a timestamp (and the entry it produced, so a repeat submit within 10
 * minutes shows that entry instead of joining twice). Expired keys are cleared on every read.
 *
 * The lock also keeps the `joinProof` of the join (docs/product.md §3), for a day: after the lock's 10
 * minutes a repeat join sends it, and only with it does the server hand this browser its entry
 * back (anyone else with the same phone learns only that the party is on the list).
 */
export const SESSION_LOCK_STORAGE_KEY = 'waitlistSessionLock';

export interface SessionLock {
  timestamp: number;
  waitlistId: string;
  joinProof?: string;
}

type LockMap = Record<string, SessionLock>;

export const sessionLockKey = (venueId: string, phone: string) => `${venueId}${phoneDigits(phone)}`;

const keptFor = (lock: SessionLock) => (typeof lock.joinProof === 'string' ? JOIN_PROOF_KEEP_MS : SESSION_LOCK_MS);

function readMap(now: number): LockMap {
  let map: LockMap = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SESSION_LOCK_STORAGE_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') map = parsed as LockMap;
  } catch {
    map = {};
  }
  const live = Object.fromEntries(
    Object.entries(map).filter(([, lock]) => typeof lock?.timestamp === 'number' && now - lock.timestamp < keptFor(lock)),
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

/** The lock of this venue and phone while it holds (10 minutes): show its entry, do not join. */
export function findSessionLock(venueId: string, phone: string, now = Date.now()): Omit<SessionLock, 'joinProof'> | undefined {
  const lock = readMap(now)[sessionLockKey(venueId, phone)];
  if (!lock || now - lock.timestamp >= SESSION_LOCK_MS) return undefined;
  return { timestamp: lock.timestamp, waitlistId: lock.waitlistId };
}

/** The proof of this browser's own join at this venue with this phone, if it still keeps one. */
export function findJoinProof(venueId: string, phone: string, now = Date.now()): string | undefined {
  return readMap(now)[sessionLockKey(venueId, phone)]?.joinProof;
}

export function writeSessionLock(venueId: string, phone: string, waitlistId: string, now = Date.now(), joinProof?: string): void {
  const map = readMap(now);
  map[sessionLockKey(venueId, phone)] = { timestamp: now, waitlistId, ...(joinProof ? { joinProof } : {}) };
  writeMap(map);
}
