import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, following its changes (a phone turned sideways). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (listener: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', listener);
      return () => list.removeEventListener('change', listener);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
    () => false,
  );
}

/** The console's phone layout (host.css uses the same width): one action per card, the rest in a menu. */
export const PHONE_QUERY = '(max-width: 640px)';
