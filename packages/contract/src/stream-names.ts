/**
 * Plain values with no schema library behind them: the browser bundles them without zod
 * (package.json `sideEffects: false` lets the bundler skip the schema files a page does not use).
 */
export const StreamMessage = {
  /** Diner stream: the entry's own position, the same shape as GET /waitlists/{id}/position. */
  position: 'position',
  /** Host stream: the whole live queue plus the venue events that led to it. */
  queue: 'queue',
} as const;
export type StreamMessageName = (typeof StreamMessage)[keyof typeof StreamMessage];

/** GET /api/waitlists/{waitlistId}/events (own id or read-only share id; `?lng=en`). */
export const dinerStreamPath = (waitlistId: string): string => `/waitlists/${waitlistId}/events`;
/** GET /api/host/venues/{venueId}/events (staff session cookie). */
export const hostStreamPath = (venueId: string): string => `/host/venues/${venueId}/events`;
