/** Every route path of the diner client and its href builder, in one place (docs/ARCHITECTURE.md, habit 8). */
export const paths = {
  position: {
    path: '/waitlist/:waitlistId',
    href: (waitlistId: string) => `/waitlist/${encodeURIComponent(waitlistId)}`,
  },
  join: {
    path: '/remote-waitlist/:venueId',
    href: (venueId: string) => `/remote-waitlist/${encodeURIComponent(venueId)}`,
  },
  terms: { path: '/terms-service', href: () => '/terms-service' },
  notFound: { path: '/404-not-found', href: () => '/404-not-found' },
  /** The host console; its own screens are relative routes under it (features/host). */
  host: {
    path: '/host/*',
    href: (venueId?: string, screen: 'queue' | 'today' | 'settings' | 'poster' = 'queue') =>
      venueId ? `/host/${encodeURIComponent(venueId)}/${screen}` : '/host',
  },
} as const;
