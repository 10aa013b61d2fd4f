/** Query keys of the console; the live stream writes into `queue`. */
export const hostKeys = {
  me: ['host', 'me'] as const,
  queue: (venueId: string) => ['host', 'queue', venueId] as const,
  /** The mutation key of writes on one party (use-entry-actions.ts reads which parties are busy). */
  entryWrites: (venueId: string) => ['host', 'entry-writes', venueId] as const,
  settings: (venueId: string) => ['host', 'settings', venueId] as const,
  stats: (venueId: string, date: string) => ['host', 'stats', venueId, date] as const,
  thread: (venueId: string, entryId: string) => ['host', 'thread', venueId, entryId] as const,
  team: (venueId: string) => ['host', 'team', venueId] as const,
  invite: (token: string) => ['host', 'invite', token] as const,
};
