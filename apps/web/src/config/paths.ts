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
    href: (venueId?: string, screen: 'queue' | 'today' | 'settings' | 'poster' | 'team' | 'account' = 'queue') =>
      venueId ? `/host/${encodeURIComponent(venueId)}/${screen}` : '/host',
  },
  /** An invitation to a venue's team (docs/decisions/023-staff-roles.md): the console answers it. */
  // The server writes the same link into the email (contract's staffInvitePath; paths.test.ts checks they agree).
  hostInvite: { path: '/host/invite/:token', href: (token: string) => `/host/invite/${encodeURIComponent(token)}` },
} as const;
