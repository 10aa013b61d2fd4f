import type { EntryRow } from '../../db/types.js';

/** The conversation and call fields of an entry (docs/product.md §7, §8) as a new entry starts them: no answer, no call, nothing unread. */
export const FRESH_CONVERSATION = {
  reply_kind: null,
  reply_minutes: null,
  reply_at: null,
  calls: 0,
  hold_until: null,
  hold_extended: 0,
  unread: 0,
  last_message_id: null,
  last_message_status: null,
  last_message_channel: null,
  last_message_fallback: null,
  whatsapp_opt_in: 0,
  whatsapp_inbound_at: null,
  venue_messages: null,
  venue_message_at: null,
  getting_close_at: null,
} as const satisfies Partial<EntryRow>;

/** A row with no quote (docs/product.md §4): the venue had no pace or history when the party joined. */
export const NO_QUOTE = {
  quoted_minutes: null,
  quoted_low: null,
  quoted_high: null,
  quote_basis: null,
} as const satisfies Partial<EntryRow>;
