import * as z from 'zod/mini';

/** Real-time event names on a venue's channel (docs/product.md §14). */
export const WaitlistEvent = {
  add: 'add',
  update: 'update',
  call: 'call',
  seat: 'seat',
  cancel: 'cancel',
  remove: 'remove',
} as const;
export type WaitlistEventName = (typeof WaitlistEvent)[keyof typeof WaitlistEvent];
export const WaitlistEventName = z.enum(['add', 'update', 'call', 'seat', 'cancel', 'remove']);

/**
 * What travels on a venue channel between instances: no names, phones, emails or notes
 * (docs/product.md §3). `entryId` is absent for venue-wide changes (open, lock, close).
 */
export const VenueChannelEvent = z.object({
  type: WaitlistEventName,
  venueId: z.string(),
  entryId: z.optional(z.string()),
  at: z.string(),
  /**
   * Set when the party itself caused the change (a remote join, an answer, a message, leaving): the
   * console highlights the card and plays its sound (docs/product.md §7).
   */
  byParty: z.optional(z.boolean()),
  /** A change only staff see (a delivery report, messages read, a party's message): diner pages are not written. */
  staffOnly: z.optional(z.boolean()),
});
export type VenueChannelEvent = z.infer<typeof VenueChannelEvent>;
