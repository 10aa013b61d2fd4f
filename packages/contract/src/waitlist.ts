import * as z from 'zod/mini';
import { NOTE_MAX_LENGTH } from './constants.js';
import { EntryReply, VenueMessage } from './conversation.js';
import { EntryId, VenueId } from './ids.js';
import { OperationMode } from './venue.js';
import { messages } from './messages.js';
import { plainText } from './plain-text.js';

export { messages } from './messages.js';

/** docs/product.md §15: two letters, a space, a surname of at least two characters. */
export const FULL_NAME_PATTERN = /^\s*\p{L}[\p{L}\p{M}'’.-]+(?:\s+[\p{L}\p{M}'’.-]+)*\s+[\p{L}\p{M}'’.-]{2,}\s*$/u;

export const FullName = z
  .string()
  .check(plainText(), z.maxLength(120, { error: messages.surname }), z.regex(FULL_NAME_PATTERN, { error: messages.surname }));
export const Email = z.email({ error: messages.email }).check(z.maxLength(254, { error: messages.email }));
/** Optional email: absent or empty means none. */
export const OptionalEmail = z.optional(z.union([z.literal(''), Email]));
/** A note may span lines (a unit, a company name and a location on their own lines). */
export const Note = z.string().check(plainText({ multiLine: true }), z.maxLength(NOTE_MAX_LENGTH, { error: messages.note }));

/**
 * 201: a new entry, with its `joinProof` (only its hash is stored; keep it to get the entry back).
 * 200: a repeat join that showed the proof of the first join gets that entry (created false).
 * A repeat join without the proof answers 409 ALREADY_ON_WAITLIST instead, without any id.
 */
export const CreateWaitlistResponse = z.object({
  _id: EntryId,
  created: z.boolean(),
  /** Absent when the venue hides positions (`hidePosition`, docs/product.md §4). */
  globalPos: z.optional(z.number()),
  joinProof: z.optional(z.string()),
});
export type CreateWaitlistResponse = z.infer<typeof CreateWaitlistResponse>;

export const EntryStatus = z.enum(['active', 'called', 'seated', 'cancelled']);
export type EntryStatus = z.infer<typeof EntryStatus>;

/** `Expired`: still open a day after joining, ended by the retention job (docs/security.md); never sent by a client. */
export const CancelReason = z.enum(['Customer', 'Host', 'NoShow', 'Removed', 'Expired']);
export type CancelReason = z.infer<typeof CancelReason>;

/** A wait quoted as a range of whole minutes (docs/product.md §4). */
export const EstimatedRange = z.object({ low: z.number(), high: z.number() });
export type EstimatedRange = z.infer<typeof EstimatedRange>;

export const PositionEntry = z.object({
  status: EntryStatus,
  /**
   * Parties waiting ahead plus one (1 = next); 0 once the entry is no longer waiting. Absent, like
   * `pos` and `estimatedTime`, when the venue hides positions (`hidePosition`, docs/product.md §4).
   */
  globalPos: z.optional(z.number()),
  pos: z.optional(z.number()),
  priority: z.boolean(),
  _id: z.string(),
  arrivedAt: z.string(),
  customer: z.object({ _id: z.string(), name: z.string() }),
  customerTab: z.string(),
  /**
   * Minutes, from how the venue has been seating parties (docs/product.md §4); null without a pace or
   * history; absent with `hidePosition`.
   */
  estimatedTime: z.optional(z.nullable(z.number())),
  /** The range the wait most likely falls in, minutes; null with `estimatedTime`; absent with `hidePosition`. */
  estimatedRange: z.optional(z.nullable(EstimatedRange)),
  origin: z.object({ _id: z.string(), label: z.string() }),
  partySize: z.number(),
  venue: VenueId,
  hideCustomerPosition: z.boolean(),
  operationMode: OperationMode,
  displayHelpers: z.object({ partyLabel: z.string(), priorityText: z.string() }),
  /** Read-only id for `?shared=true` links; null when this answer was read through one. */
  shareId: z.nullable(z.string()),
  isShared: z.boolean(),
  cancelReason: z.nullable(z.string()),
  notifiedAt: z.nullable(z.string()),
  seatedAt: z.nullable(z.string()),
  /** The party's latest answer (docs/product.md §7); null until it answers. */
  reply: z.nullable(EntryReply),
  /** Until when a called party's table is held; null without a window. */
  holdUntil: z.nullable(z.string()),
  /** How many times the venue called the party (docs/product.md §8: calling again). */
  calls: z.number(),
  /** The venue's latest messages to the party, newest first. */
  messages: z.array(VenueMessage),
  /**
   * The party joined already close to the front (docs/product.md §8): no "your turn is coming"
   * notice, as it gets no getting-close message.
   */
  joinedClose: z.boolean(),
});
export type PositionEntry = z.infer<typeof PositionEntry>;

/** GET /waitlists/{waitlistId}/position */
export const PositionResponse = z.object({
  waitlist: PositionEntry,
  /** `gettingCloseAt` and `gettingCloseMinutes`: the venue's getting-close rule (getting-close.ts), which the page's notice asks. */
  waitlistSettings: z.object({
    hiddenCustomerPosition: z.boolean(),
    operationMode: OperationMode,
    gettingCloseAt: z.number(),
    gettingCloseMinutes: z.number(),
  }),
});
export type PositionResponse = z.infer<typeof PositionResponse>;

/** GET /waitlists/{waitlistId}/{venueId}/status */
export const StatusResponse = z.object({
  status: EntryStatus,
  cancelReason: z.nullable(z.string()),
  notifiedAt: z.nullable(z.string()),
  seatedAt: z.nullable(z.string()),
});
export type StatusResponse = z.infer<typeof StatusResponse>;

/** PUT /waitlists/{waitlistId}/{venueId}/cancel */
export const CancelBody = z.strictObject({
  logs: z.strictObject({ customer: z.string().check(plainText(), z.maxLength(64)), actionType: z.literal('Remove') }),
  customer: z.string().check(plainText(), z.maxLength(64)),
  cancelReason: z.literal('Customer'),
});
export type CancelBody = z.infer<typeof CancelBody>;
