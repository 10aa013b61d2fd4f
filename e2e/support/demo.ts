/** Demo venues seeded on a fresh database (shared/spec/decisions.md §5). */
export const DEMO_BISTRO_ID = '6553f1a2b3c4d5e6f7a8b901';
export const DEMO_CLUB_ID = '6553f1a2b3c4d5e6f7a8b902';
/** Well-formed, never seeded. */
export const UNKNOWN_VENUE_ID = '0000000000000000000000aa';
