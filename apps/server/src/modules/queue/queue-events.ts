import type { VenueChannelEvent, WaitlistEventName } from '@vez/contract';
import type { QueueDeps } from './queue-deps.js';

/**
 * Announces a change at a venue on its channel: pages, consoles and other instances follow, and
 * the queue's caches of that venue are voided on the way (queue-caches.ts). No personal data
 * travels on a channel (docs/security.md).
 */
export function publishQueueEvent(
  deps: Pick<QueueDeps, 'bus' | 'now'>,
  type: WaitlistEventName,
  venueId: string,
  entryId?: string,
  options: { byParty?: boolean; staffOnly?: boolean } = {},
): void {
  const event: VenueChannelEvent = { type, venueId, at: new Date(deps.now()).toISOString() };
  if (entryId) event.entryId = entryId;
  // The party's own doing: the console highlights it (docs/product.md §7).
  if (options.byParty) event.byParty = true;
  if (options.staffOnly) event.staffOnly = true;
  deps.bus.publish(event);
}
