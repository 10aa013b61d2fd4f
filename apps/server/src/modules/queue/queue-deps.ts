import type { MessageChannel } from '@vez/contract';
import type { Db } from '../../db/connect.js';
import type { EntryRow } from '../../db/types.js';
import type { EventBus } from '../../plugins/bus.js';
import type { ChangeHooks } from './change-hooks.js';
import type { PaceCache } from '../estimate/index.js';
import type { PositionCache } from './position-cache.js';

/** What the queue's services need: the store, the venue channels, a clock and the queue's caches. */
export interface QueueDeps {
  db: Db;
  /** Publishes venue events; the app's bus voids this instance's kept answers first (queue-caches.ts). */
  bus: EventBus;
  now: () => number;
  /** Work other modules run inside a change's transaction (change-hooks.ts); none: the change alone. */
  hooks?: ChangeHooks;
  /** Reports a failure of work done after a change was answered (the getting-close check). */
  onBackgroundError?: (error: unknown) => void;
  /** How many sends staff may make to a party and from a venue (staff-sends.ts); none: unbounded. */
  staffSendBounds?: StaffSendBounds;
  /** Sends staff messages to a party and sends a message again (the notifications module). */
  messenger?: PartyMessenger;
  /** Serialised position answers kept until the venue changes. */
  positions?: PositionCache;
  /** Seating paces kept until the venue changes. */
  pace?: PaceCache;
}

/** How many sends staff may make (docs/security.md; config.ts STAFF_SENDS_PER_PARTY_PER_10_MIN, STAFF_SENDS_PER_VENUE_PER_HOUR). */
export interface StaffSendBounds {
  perParty10Min: number;
  perVenueHour: number;
}

/**
 * How the queue reaches a party by its channel (docs/product.md §7), without knowing the message
 * queue: both answer the queued message's id, or undefined when nothing was queued (no phone, a
 * country the venue does not text, a phone that answered STOP).
 */
/** A message queued to the party: its row in the queue and the channel it goes by (docs/product.md §10). */
export interface QueuedMessage {
  id: string;
  channel: MessageChannel;
}

export interface PartyMessenger {
  send(trx: Db['kysely'], entry: EntryRow, text: string, idempotencyKey: string): Promise<QueuedMessage | undefined>;
  /** Queues a message sent earlier about this entry again; undefined when it is not this entry's. */
  resend(trx: Db['kysely'], entry: EntryRow, messageId: string): Promise<QueuedMessage | undefined>;
}
