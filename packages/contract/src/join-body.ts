import * as z from 'zod/mini';
import { CREATE_DATA_ORIGIN, ORIGIN_LABEL_WIDGET } from './constants.js';
import { VenueId } from './ids.js';
import { messages } from './messages.js';
import { Phone } from './phone-schema.js';
import { FullName, Note, OptionalEmail } from './waitlist.js';

/** POST /waitlists/{venueId}/create (docs/product.md §13). Strict: an unknown key is a 422 naming it (docs/ARCHITECTURE.md, habit 15). */
export const CreateWaitlistBody = z.strictObject({
  customer: z.strictObject({ name: FullName, phone: Phone, email: OptionalEmail }),
  venue: VenueId,
  origin: z.strictObject({ label: z.literal(ORIGIN_LABEL_WIDGET) }),
  partySize: z.int().check(z.gte(1, { error: messages.partySize }), z.lte(1000, { error: messages.partySize })),
  benefits: z.literal(''),
  logs: z.strictObject({ actionType: z.literal('Add') }),
  data: z.strictObject({ origin: z.literal(CREATE_DATA_ORIGIN) }),
  sendSms: z.literal(true),
  note: z.optional(Note),
  /** The diner's language for messages; beyond the diner client's first payload (docs/product.md §17), optional. */
  lang: z.optional(z.enum(['pt', 'en'])),
  /**
   * The `joinProof` of this browser's own first join (docs/product.md §3): a repeat join that shows it
   * gets its entry back (200); without it a repeat join answers 409 ALREADY_ON_WAITLIST, no id.
   */
  joinProof: z.optional(z.string().check(z.maxLength(100))),
  /**
   * The diner ticked "receive the updates by WhatsApp" (docs/product.md §10), asked only when the
   * venue's channel is WhatsApp; absent (or false) means SMS.
   */
  whatsappOptIn: z.optional(z.boolean()),
});
export type CreateWaitlistBody = z.infer<typeof CreateWaitlistBody>;
