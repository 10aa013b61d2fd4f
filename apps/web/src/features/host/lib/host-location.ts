import { useEffect, useSyncExternalStore } from 'react';

/**
 * The console's own little router over the History API. The console deliberately does not import
 * react-router: any import of it from this chunk makes the bundler split react-router and React out
 * of the diner entry chunk, and the diner pages would load more JavaScript (measured: +1.5 KB gzip
 * on the entry, +6 KB on the join page). The app router still matches `/host/*` and mounts us.
 */
const NAVIGATE_EVENT = 'vez:host-navigate';

export const HOST_SCREENS = ['queue', 'today', 'settings', 'poster'] as const;
export type HostScreen = (typeof HOST_SCREENS)[number];

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

export function navigateHost(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(window.history.state, '', path);
  else window.history.pushState(null, '', path);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** `/host/{venueId}/{screen}` of the current address (either part may be missing). */
export function useHostLocation(): { venueId: string | undefined; screen: HostScreen | undefined; rawScreen: string | undefined } {
  const pathname = useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => '/host',
  );
  const [, , venueId, rawScreen] = pathname.split('/').map((part) => decodeURIComponent(part));
  const screen = (HOST_SCREENS as readonly string[]).includes(rawScreen ?? '') ? (rawScreen as HostScreen) : undefined;
  return { venueId: venueId || undefined, screen, rawScreen: rawScreen || undefined };
}

/** Replaces the address once rendering shows it is incomplete (the `<Navigate replace>` of a router). */
export function useRedirect(to: string | null): void {
  useEffect(() => {
    if (to) navigateHost(to, { replace: true });
  }, [to]);
}
