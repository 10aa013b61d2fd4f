import * as z from 'zod/mini';
import { EntryReply, LastMessage } from './conversation.js';
import { VenueId } from './ids.js';
import { StaffRole } from './team.js';
import { ThemeResponse, VenueName, VenueResponse, VenueSettings } from './venue.js';
import { OptionalPhone } from './phone-schema.js';
import { plainText } from './plain-text.js';
import { EntryStatus, EstimatedRange, Note, OptionalEmail, messages } from './waitlist.js';

/** POST /api/host/login */
export const HostLoginBody = z.strictObject({
  email: z.email().check(z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type HostLoginBody = z.infer<typeof HostLoginBody>;

/** A venue the staff member runs, with their role there (docs/decisions/023-staff-roles.md). */
export const HostVenueSummary = z.object({ _id: VenueId, slug: z.string(), name: VenueName, role: StaffRole });
export type HostVenueSummary = z.infer<typeof HostVenueSummary>;

/** POST /api/host/login and GET /api/host/me: who is signed in and which venues they may run. */
export const HostMeResponse = z.object({
  staff: z.object({ _id: z.string(), email: z.string() }),
  venues: z.array(HostVenueSummary),
});
export type HostMeResponse = z.infer<typeof HostMeResponse>;

export const WaitlistState = z.object({ active: z.boolean(), locked: z.boolean() });
export type WaitlistState = z.infer<typeof WaitlistState>;

/** One party of the live queue as staff see it: with name, phone, email and note. */
export const HostEntry = z.object({
  _id: z.string(),
  customerTab: z.string(),
  status: EntryStatus,
  priority: z.boolean(),
  partySize: z.number(),
  name: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  note: z.nullable(z.string()),
  section: z.nullable(z.string()),
  originLabel: z.string(),
  /** Parties waiting ahead plus one; 0 for called parties (they keep their place, docs/product.md §4). */
  globalPos: z.number(),
  pos: z.number(),
  /** Minutes the party is expected to wait from now (docs/product.md §4); null without history or when called. */
  estimatedTime: z.optional(z.nullable(z.number())),
  estimatedRange: z.optional(z.nullable(EstimatedRange)),
  /** The wait the party was quoted when it joined (docs/product.md §4); null when there was no estimate. */
  quoted: z.nullable(z.object({ time: z.number(), low: z.number(), high: z.number() })),
  arrivedAt: z.string(),
  notifiedAt: z.nullable(z.string()),
  /** The conversation (docs/product.md §7): the party's latest answer, calls, the hold window, unread messages, the last delivery. */
  reply: z.nullable(EntryReply),
  calls: z.number(),
  calledAt: z.nullable(z.string()),
  holdUntil: z.nullable(z.string()),
  unread: z.number(),
  lastMessage: z.nullable(LastMessage),
  /** The party agreed to get the venue's messages by WhatsApp (docs/product.md §10). */
  whatsappOptIn: z.optional(z.boolean()),
});
export type HostEntry = z.infer<typeof HostEntry>;

/** GET /api/host/venues/{venueId}/entries: waiting and called entries, in queue order. */
export const HostQueueResponse = z.object({
  venueId: VenueId,
  waitlist: WaitlistState,
  entries: z.array(HostEntry),
});
export type HostQueueResponse = z.infer<typeof HostQueueResponse>;

/**
 * A walk-in's name (docs/product.md §6): one word is enough at the door, as long as it has a
 * letter; a diner's own join still asks for a surname (`FullName`, docs/product.md §15).
 */
export const WalkInName = z
  .string()
  .check(plainText(), z.maxLength(120, { error: messages.name }), z.regex(/\p{L}/u, { error: messages.name }));

/**
 * POST /api/host/venues/{venueId}/entries: a walk-in. A name is all it needs; without a phone no
 * message is sent and the party is called out by its ticket number (`customerTab`). The fields of the diner create payload that
 * matter; the diner payload's other keys (docs/product.md §6: same fields) are accepted and ignored, any
 * other key is a 422 naming it. The origin label is always Host.
 */
export const HostCreateEntryBody = z.strictObject({
  customer: z.strictObject({ name: WalkInName, phone: OptionalPhone, email: OptionalEmail }),
  partySize: z.int().check(z.gte(1, { error: messages.partySize }), z.lte(1000, { error: messages.partySize })),
  note: z.optional(Note),
  priority: z.optional(z.boolean()),
  lang: z.optional(z.enum(['pt', 'en'])),
  /** The party at the door agreed to WhatsApp (docs/product.md §10); without it, SMS. */
  whatsappOptIn: z.optional(z.boolean()),
  venue: z.optional(z.unknown()),
  origin: z.optional(z.unknown()),
  benefits: z.optional(z.unknown()),
  logs: z.optional(z.unknown()),
  data: z.optional(z.unknown()),
  sendSms: z.optional(z.unknown()),
});
export type HostCreateEntryBody = z.infer<typeof HostCreateEntryBody>;

/** The answer of host writes on one entry. */
export const HostEntryResponse = z.object({ entry: HostEntry, created: z.optional(z.boolean()) });
export type HostEntryResponse = z.infer<typeof HostEntryResponse>;

/**
 * POST .../entries/{entryId}/cancel. `Host` and `NoShow` publish the `cancel` event; `Removed`
 * (taken off the list, e.g. a duplicate) publishes `remove`.
 */
export const HostCancelReason = z.enum(['Host', 'NoShow', 'Removed']);
export const HostCancelBody = z.strictObject({ reason: HostCancelReason });
export type HostCancelBody = z.infer<typeof HostCancelBody>;

/** PATCH .../entries/{entryId}: at least one field; an empty note clears it. */
export const HostEntryPatch = z
  .strictObject({
    partySize: z.optional(z.int().check(z.gte(1, { error: messages.partySize }), z.lte(1000, { error: messages.partySize }))),
    note: z.optional(z.nullable(Note)),
    priority: z.optional(z.boolean()),
  })
  .check(
    z.refine((p) => p.partySize !== undefined || p.note !== undefined || p.priority !== undefined, {
      error: 'Nothing to change: send partySize, note or priority.',
    }),
  );
export type HostEntryPatch = z.infer<typeof HostEntryPatch>;

/** PUT /api/host/venues/{venueId}/waitlist: open (active), lock (no remote joins) or close. */
export const WaitlistStateBody = z.strictObject({ active: z.boolean(), locked: z.boolean() });
export const WaitlistStateResponse = z.object({ waitlist: WaitlistState });
export type WaitlistStateResponse = z.infer<typeof WaitlistStateResponse>;

/** GET and PATCH /api/host/venues/{venueId}/settings: everything a console edits, in one answer. */
export const HostSettingsResponse = z.object({
  venue: VenueResponse,
  theme: ThemeResponse,
  settings: VenueSettings,
  maxPartySize: z.number(),
  sections: z.array(z.string()),
  waitlist: WaitlistState,
});
export type HostSettingsResponse = z.infer<typeof HostSettingsResponse>;

/** The staff session cookie (httpOnly, SameSite=Lax, path /api). */
export const HOST_SESSION_COOKIE = 'vez_staff';
