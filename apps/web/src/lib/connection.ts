import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * Clients assume a bad network (docs/ARCHITECTURE.md's conventions, habit 22): what a diner page
 * says about its connection (docs/product.md §12.7). `down`: the browser is offline or the page's
 * live feed is not live; `back`: it came back a moment ago (said for BACK_NOTICE_MS); `ok`.
 */
export type Connection = 'ok' | 'down' | 'back';

/** How long "back online" stays on screen once the connection returned. */
export const BACK_NOTICE_MS = 6000;

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** The browser's online and offline events, as they come: no polling, no delay. */
export const useIsOnline = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );

/** The connection as the page says it: `isLive` false also counts as down (a live feed that dropped). */
export function useConnection(isLive = true): Connection {
  const isUp = useIsOnline() && isLive;
  const [wasDown, setWasDown] = useState(!isUp);
  useEffect(() => {
    if (!isUp) return setWasDown(true);
    const timer = setTimeout(() => setWasDown(false), BACK_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [isUp]);
  return !isUp ? 'down' : wasDown ? 'back' : 'ok';
}
