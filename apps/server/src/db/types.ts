import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are epoch milliseconds (bigint in PostgreSQL, parsed to number; integer in SQLite). */
export interface VenueTable {
  id: string;
  slug: string;
  name_pt: string;
  name_en: string | null;
  name_fr: string | null;
  name_es: string | null;
  city: string;
  neighborhood: string;
  has_menu: number;
  login_journey: number;
  max_party_size: number;
  /** JSON array of section names. */
  sections: string;
  /** JSON of VenueSettings. */
  settings: string;
  /** JSON of ThemeResponse. */
  theme: string;
  waitlist_active: number;
  waitlist_locked: number;
  /** The next ticket number (customerTab); joins take it under the venue row lock. */
  next_seq: number;
  created_at: number;
  updated_at: number;
}

export interface EntryTable {
  id: string;
  share_id: string;
  venue_id: string;
  seq: number;
  status: 'active' | 'called' | 'seated' | 'cancelled';
  priority: number;
  party_size: number;
  band: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  note: string | null;
  section: string | null;
  origin_label: string;
  lang: string;
  created_at: number;
  notified_at: number | null;
  seated_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** When it stopped waiting (seated or cancelled); drives retention. */
  ended_at: number | null;
  erased_at: number | null;
  /** SHA-256 (hex) of the proof handed to the browser that made the join (docs/product.md §3). */
  join_proof_hash: string | null;
  /**
   * HMAC-SHA256 (hex) of the joining client's address and the venue, keyed by the store's
   * `join-address` key (docs/decisions/026): counts a remote join's open entries per address. Null
   * for staff and kiosk joins, and once erased with the entry's personal data.
   */
  client_key: string | null;
  /** When a repeat join last sent the position link again by SMS (at most once a minute). */
  link_resent_at: number | null;
  /** The party's latest answer (docs/product.md §7): `onMyWay`, `needMoreTime` or `arrived`. */
  reply_kind: string | null;
  reply_minutes: number | null;
  reply_at: number | null;
  /** How many times staff called the party. */
  calls: Generated<number>;
  /** Until when the table is held for a called party; null: no window. */
  hold_until: number | null;
  /** 1 once "I need more time" extended the hold window (once per call). */
  hold_extended: Generated<number>;
  /** Messages from the party staff have not read yet. */
  unread: Generated<number>;
  /** The last message sent to the party (a `messages` row) and its delivery. */
  last_message_id: string | null;
  last_message_status: string | null;
  /** By which channel the last message went (`sms`, `whatsapp`), and the channel that failed before its SMS fallback (migration 017). */
  last_message_channel: string | null;
  last_message_fallback: string | null;
  /** 1 when the party agreed to get the venue's messages by WhatsApp (docs/product.md §10). */
  whatsapp_opt_in: Generated<number>;
  /** The party's last inbound WhatsApp message: the customer-service window runs 24 h from it. */
  whatsapp_inbound_at: number | null;
  /** JSON: the venue's latest messages to the party, newest first, as the diner's page shows them. */
  venue_messages: string | null;
  venue_message_at: number | null;
  /** When the party got its "getting close" message, or joined already close (docs/product.md §8). */
  getting_close_at: number | null;
  /** The wait quoted at join (docs/product.md §4), minutes; null when there was no estimate. */
  quoted_minutes: number | null;
  quoted_low: number | null;
  quoted_high: number | null;
  /** The forecasts the quote was made from (estimator.ts `QuoteBasis`, JSON): the seat teaches the estimator with them. */
  quote_basis: string | null;
}

/** One message of an entry's thread (docs/product.md §7). */
export interface EntryMessageTable {
  id: string;
  entry_id: string;
  venue_id: string;
  /** `in`: from the party; `out`: from the venue. */
  direction: 'in' | 'out';
  /** Null once erased with the entry's personal data. */
  text: string | null;
  /** `received` / `read` for incoming; `queued`, `sent`, `delivered`, `failed` for outgoing. */
  status: string;
  /** The outgoing message's row in the message queue. */
  message_id: string | null;
  created_at: number;
  /** By which channel it went, and the channel that failed before its SMS fallback (migration 017). */
  channel: string | null;
  fallback_from: string | null;
}

/** A browser's push subscription for an entry (docs/product.md §8); personal data. */
export interface PushSubscriptionTable {
  id: string;
  entry_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

/** Keys the server made for itself and shares through the store (the VAPID key pair). */
export interface AppKeyTable {
  name: string;
  value: string;
  created_at: number;
}

/** A phone that answered STOP: nothing more is sent to it. */
/** A message staff sent to a party (a message, a resend, a call): counted for the send bounds (docs/security.md). */
export interface StaffSendTable {
  id: string;
  venue_id: string;
  entry_id: string;
  created_at: number;
}

/** A join's `Idempotency-Key` and its first answer, kept a day (docs/product.md §3.9, migration 018). */
export interface IdempotencyKeyTable {
  key: string;
  venue_id: string;
  /** SHA-256 of the join's body (with the venue): the same key with another body is refused. */
  body_hash: string;
  /** The first answer's HTTP status; 0 while the claiming join is still in its transaction. */
  status: number;
  /** The first answer's JSON body (it holds the join proof: the key is as secret as the proof). */
  answer: string;
  created_at: number;
}

/** A provider webhook already acted on (docs/security.md, webhook replay). */
export interface WebhookSidTable {
  /** `inbound:<MessageSid>` or `status:<MessageSid>:<MessageStatus>`. */
  key: string;
  created_at: number;
}

export interface SmsOptOutTable {
  phone: string;
  created_at: number;
}

/**
 * The wait estimator's state per venue and band (band -1: the whole venue), docs/decisions/022:
 * the recent service interval, the calibration, the turn cycle and the spread of the quotes' errors.
 */
/** docs/decisions/022-wait-estimates.md, "The floor": a venue's tables and what they taught (floor.ts). */
export interface VenueFloorTable {
  venue_id: string;
  /** JSON of FloorState. */
  state: string;
  updated_at: number;
}

export interface VenuePaceTable {
  venue_id: string;
  band: number;
  /** Average time one seating takes while parties wait (an exponential average), ms. */
  service_ms: number;
  /** 0 before the first seating. */
  last_seated_at: number;
  samples: number;
  /**
   * A weighted least-squares fit of actual waits (y, minutes) on the pace's forecast at join (x,
   * minutes), older parties weighing less: sums of weights, x, x², y and xy.
   */
  fit_w: number;
  fit_x: number;
  fit_xx: number;
  fit_y: number;
  fit_xy: number;
  /** The 10th and 90th percentiles of (actual - quoted) / (quoted + margin). */
  spread_low: number;
  spread_high: number;
  /** Seated parties whose quote the spread has learned from. */
  quotes: number;
  /** The turn-cycle model (estimator.ts `Cycle`, JSON): recent seat times and each table count's record. */
  cycle: string | null;
}

/** The service interval per hour of the week (0 = Sunday 00:00 UTC): the venue's history. */
export interface VenuePaceSlotTable {
  venue_id: string;
  band: number;
  slot: number;
  service_ms: number;
  samples: number;
}

/** An uploaded venue image; the bytes live here so every server instance serves the same file. */
export interface ImageTable {
  id: string;
  venue_id: string;
  content_type: string;
  /** BLOB in SQLite, bytea in PostgreSQL; both drivers answer a Buffer. */
  bytes: Buffer;
  width: number;
  height: number;
  size: number;
  created_at: number;
}

/** A staff account; email is stored lower-cased. */
export interface StaffTable {
  id: string;
  email: string;
  /** scrypt$N$r$p$salt$hash (base64url salt and hash). */
  password_hash: string;
  created_at: number;
}

/** Which venues a staff member may run (many to many), and as what (docs/decisions/023-staff-roles.md). */
export interface StaffVenueTable {
  staff_id: string;
  venue_id: string;
  role: 'owner' | 'host';
}

/** An invitation to a venue's team: SHA-256 (hex) of the link's token, single use. */
export interface StaffInviteTable {
  id: string;
  token_hash: string;
  venue_id: string;
  email: string;
  role: 'owner' | 'host';
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A staff session: SHA-256 (hex) of the cookie token, never the token itself. */
export interface StaffSessionTable {
  token_hash: string;
  staff_id: string;
  created_at: number;
  expires_at: number;
}

/** A diner with a login (docs/product.md §13, product user); each contact counts once a code verified it. */
export interface ProductUserTable {
  id: string;
  first_name: string;
  last_name: string;
  /** E.164; null once its verified owner claimed it from this account (docs/product.md §3). */
  phone: string | null;
  /** When a code verified the phone; null: contact data only, never matches an account. */
  phone_verified_at: number | null;
  email: string | null;
  /** When a code verified the email; null: contact data only, never matches an account. */
  email_verified_at: number | null;
  birthday: string | null;
  gender: string | null;
  created_at: number;
  updated_at: number;
}

/** A product user's session: SHA-256 (hex) of the cookie token. */
export interface UserSessionTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** A one-time code: scrypt hash, 10 minutes, at most 5 wrong tries (docs/product.md §3). */
export interface OneTimeCodeTable {
  id: string;
  channel: 'sms' | 'email';
  target: string;
  venue_id: string | null;
  code_hash: string;
  client_key: string;
  created_at: number;
  expires_at: number;
  tries: number;
  used_at: number | null;
}

/** A single-use, short-lived login token carried by an SMS link; SHA-256 (hex) of the token. */
export interface PassportTable {
  token_hash: string;
  user_id: string;
  entry_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UserEventTable {
  id: string;
  user_id: string;
  venue_id: string;
  event_type: string;
  /** JSON. */
  event_body: string;
  waitlist_id: string | null;
  created_at: number;
}

/** The durable outbox queue of SMS and email (docs/decisions/003-message-queue.md). */
export interface MessageTable {
  id: string;
  /** `push`: the recipient is an entry id; the body is the notification (JSON). */
  channel: 'sms' | 'email' | 'push';
  recipient: string;
  subject: string | null;
  body: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  /** Pending: earliest next try. Sending: end of the worker's lease. */
  next_attempt_at: number;
  provider: string | null;
  provider_id: string | null;
  error: string | null;
  idempotency_key: string;
  created_at: number;
  sent_at: number | null;
  /** The body with its code or login link masked; replaces `body` once delivered or failed. */
  safe_body: string | null;
  /** The entry this message is about, when there is one (its card shows the delivery). */
  entry_id: string | null;
  /** An SMS's cost in segments, counted at queue time (migration 016); null for other channels. */
  segments: number | null;
  /** A WhatsApp message the business starts goes as an approved template (migration 017, docs/product.md §10). */
  content_sid: string | null;
  /** JSON string `{"1": …, "2": …}`: the template's numbered slots. */
  content_variables: string | null;
  /** The text a WhatsApp message's SMS fallback carries; null for other messages. */
  fallback_body: string | null;
  /** On a fallback SMS: the WhatsApp message it replaces. */
  fallback_of: string | null;
}

/** Parties waiting (status 'active') per venue and priority, kept by triggers (migration 005). */
export interface VenueWaitingTable {
  venue_id: string;
  priority: number;
  waiting: number;
}

/** Open parties per venue, status (active or called), band and priority, kept by triggers (migration 011). */
export interface VenueOpenCountsTable {
  venue_id: string;
  status: string;
  band: number;
  priority: number;
  n: number;
}

export interface Database {
  venues: VenueTable;
  venue_waiting: VenueWaitingTable;
  venue_open_counts: VenueOpenCountsTable;
  entries: EntryTable;
  venue_pace: VenuePaceTable;
  venue_floor: VenueFloorTable;
  venue_pace_slots: VenuePaceSlotTable;
  product_users: ProductUserTable;
  user_sessions: UserSessionTable;
  one_time_codes: OneTimeCodeTable;
  passports: PassportTable;
  user_events: UserEventTable;
  messages: MessageTable;
  staff: StaffTable;
  staff_venues: StaffVenueTable;
  staff_sessions: StaffSessionTable;
  staff_invites: StaffInviteTable;
  images: ImageTable;
  entry_messages: EntryMessageTable;
  sms_opt_outs: SmsOptOutTable;
  push_subscriptions: PushSubscriptionTable;
  app_keys: AppKeyTable;
  staff_sends: StaffSendTable;
  webhook_sids: WebhookSidTable;
  idempotency_keys: IdempotencyKeyTable;
}

export type VenueRow = Selectable<VenueTable>;
export type NewVenueRow = Insertable<VenueTable>;
export type VenueRowUpdate = Updateable<VenueTable>;
export type EntryRow = Selectable<EntryTable>;
export type NewEntryRow = Insertable<EntryTable>;
export type PaceRow = Selectable<VenuePaceTable>;
export type PaceSlotRow = Selectable<VenuePaceSlotTable>;
export type StaffRow = Selectable<StaffTable>;
export type StaffSessionRow = Selectable<StaffSessionTable>;
export type StaffInviteRow = Selectable<StaffInviteTable>;
export type ImageRow = Selectable<ImageTable>;
export type ProductUserRow = Selectable<ProductUserTable>;
export type OneTimeCodeRow = Selectable<OneTimeCodeTable>;
export type MessageRow = Selectable<MessageTable>;
export type EntryMessageRow = Selectable<EntryMessageTable>;
