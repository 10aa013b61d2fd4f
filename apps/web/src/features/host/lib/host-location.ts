import { useEffect, useSyncExternalStore } from 'react';

/**
 * The console's own little router over the History API. The console deliberately does not import
 * react-router: any import of it from this chunk makes the bundler split react-router and React out
 * of the diner entry chunk, and the diner pages would load more JavaScript (measured: +1.5 KB gzip
 * on the entry, +6 KB on the join page). The app router still matches `/host/*` and mounts us.
 */
const NAVIGATE_EVENT = 'vez:host-navigate';

export const HOST_SCREENS = ['queue', 'today', 'settings', 'poster', 'team', 'account'] as const;
export type HostScreen = (typeof HOST_SCREENS)[number];

/** Screens only a venue's owners see (docs/decisions/023-staff-roles.md); the server refuses hosts anyway. */
export const OWNER_SCREENS: readonly HostScreen[] = ['settings', 'team'];

/** The screens of the bar for a role: hosts do not see the owners' screens. */
export const screensFor = (role: 'owner' | 'host' | undefined): HostScreen[] =>
  HOST_SCREENS.filter((screen) => role === 'owner' || !OWNER_SCREENS.includes(screen));

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

/** `/host/{venueId}/{screen}` of the current address (either part may be missing), or an invitation's token. */
export function useHostLocation(): {
  venueId: string | undefined;
  screen: HostScreen | undefined;
  rawScreen: string | undefined;
  inviteToken: string | undefined;
} {
  const pathname = useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => '/host',
  );
  const inviteToken = inviteTokenOf(pathname);
  if (inviteToken !== undefined) return { venueId: undefined, screen: undefined, rawScreen: undefined, inviteToken };
  const [, , venueId, rawScreen] = pathname.split('/').map((part) => decodeURIComponent(part));
  const screen = (HOST_SCREENS as readonly string[]).includes(rawScreen ?? '') ? (rawScreen as HostScreen) : undefined;
  return { venueId: venueId || undefined, screen, rawScreen: rawScreen || undefined, inviteToken: undefined };
}

/** The token of `/host/invite/{token}` (paths.hostInvite), else undefined. */
export function inviteTokenOf(pathname: string): string | undefined {
  const match = /^\/host\/invite\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** Replaces the address once rendering shows it is incomplete (the `<Navigate replace>` of a router). */
export function useRedirect(to: string | null): void {
  useEffect(() => {
    if (to) navigateHost(to, { replace: true });
  }, [to]);
}
