import { saveWaitlistState } from '../venues/venues.service.js';
import type { QueueDeps } from './queue-deps.js';
import { publishQueueEvent } from './queue-events.js';

/** Staff open (active), lock (no remote joins) or close the waitlist: event `update` without an entry. */
export async function setWaitlistState(deps: QueueDeps, venueId: string, state: { active: boolean; locked: boolean }): Promise<void> {
  await saveWaitlistState(deps.db.kysely, venueId, state, deps.now());
  publishQueueEvent(deps, 'update', venueId);
}

/** A venue-wide change that diners may see (settings, theme): event `update` without an entry. */
export function announceVenueUpdate(deps: QueueDeps, venueId: string): void {
  publishQueueEvent(deps, 'update', venueId);
}
