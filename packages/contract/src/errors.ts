/**
 * One error model from database to modal (docs/ARCHITECTURE.md, habit 6): every error the API answers has a
 * code from the catalogue (docs/product.md §18, plus the few the product adds), a safe message and
 * an HTTP status taken from this one table.
 */
export const ErrorCode = {
  INVALID_VENUEID_FORMAT: 'INVALID_VENUEID_FORMAT',
  INVALID_WAITLISTID_FORMAT: 'INVALID_WAITLISTID_FORMAT',
  FAILED_TO_GET_WAITLIST_INFORMATION: 'FAILED_TO_GET_WAITLIST_INFORMATION',
  FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION: 'FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION',
  FAILED_TO_GET_WAITLIST_STATUS: 'FAILED_TO_GET_WAITLIST_STATUS',
  FAILED_TO_LEAVE_WAITLIST: 'FAILED_TO_LEAVE_WAITLIST',
  INVALID_VENUE: 'ERROR_-_INVALID_VENUE',
  WAITLIST_STATUS_NOT_ACTIVE: 'WAITLIST_STATUS_NOT_ACTIVE',
  VENUE_INFO_NOT_FOUND: 'VENUE_INFO_NOT_FOUND',
  THEME_NOT_FOUND: 'THEME_NOT_FOUND',
  WAITLIST_SETTINGS_NOT_FOUND: 'WAITLIST_SETTINGS_NOT_FOUND',
  FAILED_TO_CREATE_NEW_WAITLIST: 'FAILED_TO_CREATE_NEW_WAITLIST',
  FAILED_TO_GET_VENUE_INFO_FROM_CUSTOMER_API: 'FAILED_TO_GET_VENUE_INFO_FROM_CUSTOMER_API',
  FAILED_TO_GET_THEME_FROM_CUSTOMER_API: 'FAILED_TO_GET_THEME_FROM_CUSTOMER_API',
  FAILED_TO_GET_WAITLIST_SETTINGS_UNAUTHENTICATED_FROM_LEGACY_API: 'FAILED_TO_GET_WAITLIST_SETTINGS_UNAUTHENTICATED_FROM_LEGACY_API',
  UNKNOWN_ERROR: 'UNKNOWN_ERROR',
  // Added by the product (beyond the diner client's first catalogue, docs/product.md §18): validation, limits, sessions, permissions.
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  WAITLIST_LOCKED: 'WAITLIST_LOCKED',
  ENTRY_NOT_ACTIVE: 'ENTRY_NOT_ACTIVE',
  SHARED_LINK_READ_ONLY: 'SHARED_LINK_READ_ONLY',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  /** A repeat join without the first join's proof: no id, the link goes again by SMS (docs/product.md §3). */
  ALREADY_ON_WAITLIST: 'ALREADY_ON_WAITLIST',
  /** The venue's cap of waiting parties is reached (setting maxWaitingParties). */
  WAITLIST_FULL: 'WAITLIST_FULL',
  /** The phone is outside the venue's SMS countries (setting smsCountries); field customer.phone. */
  PHONE_COUNTRY_NOT_ALLOWED: 'PHONE_COUNTRY_NOT_ALLOWED',
  /** One client address has its venue's bound of open parties already (docs/decisions/026, JOIN_MAX_OPEN_PER_ADDRESS_PER_VENUE). */
  TOO_MANY_OPEN_FROM_ADDRESS: 'TOO_MANY_OPEN_FROM_ADDRESS',
  /** The venue's images would pass its quota of count or bytes (IMAGE_MAX_PER_VENUE, IMAGE_MAX_BYTES_PER_VENUE). */
  IMAGE_QUOTA_EXCEEDED: 'IMAGE_QUOTA_EXCEEDED',
  // Staff roles and the team (docs/product.md §9, docs/decisions/023-staff-roles.md).
  /** A host asked for what only an owner of the venue may do (settings, images, the team). */
  OWNER_ONLY: 'OWNER_ONLY',
  /** The change would leave the venue without an owner. */
  LAST_OWNER: 'LAST_OWNER',
  /** The person is a member of the venue's team already. */
  ALREADY_STAFF: 'ALREADY_STAFF',
  /** No such member in this venue's team. */
  STAFF_NOT_FOUND: 'STAFF_NOT_FOUND',
  /** The invitation link is unknown or was withdrawn. */
  INVITE_NOT_FOUND: 'INVITE_NOT_FOUND',
  INVITE_EXPIRED: 'INVITE_EXPIRED',
  INVITE_USED: 'INVITE_USED',
  INVITE_SENDER_NOT_ALLOWED: 'INVITE_SENDER_NOT_ALLOWED',
  /** The password given to prove who one is (the current one, an account's) is not right; field names it. */
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  // Sends that cost money (docs/security.md): staff send bounds, the segment cap, template links.
  /** This party got as many staff sends (messages, resends, calls) as the 10-minute bound allows; Retry-After says when. */
  PARTY_SENDS_LIMITED: 'PARTY_SENDS_LIMITED',
  /** The venue sent as many staff messages as the hourly bound allows; Retry-After says when. */
  VENUE_SENDS_LIMITED: 'VENUE_SENDS_LIMITED',
  /** The rendered message would be longer than the SMS segment cap; field names the text. */
  MESSAGE_TOO_LONG: 'MESSAGE_TOO_LONG',
  /** A message template links somewhere other than the venue's own pages, menu or reservations; field names the text. */
  TEMPLATE_LINK_NOT_ALLOWED: 'TEMPLATE_LINK_NOT_ALLOWED',
  /** The instance is shutting down: a read it refuses, its proxy asks another instance (docs/deploy.md). */
  SERVER_RESTARTING: 'SERVER_RESTARTING',
  /** An `Idempotency-Key` seen before with a different join body: a new join needs a new key (docs/product.md §3.9). */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status and safe default message of every code. */
export const errorCatalogue: Record<ErrorCode, { status: number; message: string }> = {
  INVALID_VENUEID_FORMAT: { status: 400, message: 'Invalid VenueId format' },
  INVALID_WAITLISTID_FORMAT: { status: 400, message: 'Invalid waitlist id format' },
  FAILED_TO_GET_WAITLIST_INFORMATION: { status: 404, message: 'Failed to get waitlist information.' },
  FAILED_TO_GET_WAITLIST_INFORMATION_WITH_POSITION: {
    status: 404,
    message: 'Failed to get waitlist information.',
  },
  FAILED_TO_GET_WAITLIST_STATUS: { status: 404, message: 'Failed to get waitlist status.' },
  FAILED_TO_LEAVE_WAITLIST: { status: 409, message: 'Failed to leave the waitlist.' },
  'ERROR_-_INVALID_VENUE': { status: 400, message: 'The entry does not belong to this venue.' },
  WAITLIST_STATUS_NOT_ACTIVE: { status: 409, message: 'No waitlist available at the moment.' },
  VENUE_INFO_NOT_FOUND: { status: 404, message: 'The restaurant is closed or nonexistent' },
  THEME_NOT_FOUND: { status: 404, message: 'Theme not found.' },
  WAITLIST_SETTINGS_NOT_FOUND: { status: 404, message: 'Waitlist settings not found.' },
  FAILED_TO_CREATE_NEW_WAITLIST: { status: 500, message: 'Failed to create waitlist.' },
  FAILED_TO_GET_VENUE_INFO_FROM_CUSTOMER_API: { status: 502, message: 'Failed to get venue information.' },
  FAILED_TO_GET_THEME_FROM_CUSTOMER_API: { status: 502, message: 'Failed to get theme.' },
  FAILED_TO_GET_WAITLIST_SETTINGS_UNAUTHENTICATED_FROM_LEGACY_API: {
    status: 502,
    message: 'Failed to get waitlist settings.',
  },
  UNKNOWN_ERROR: { status: 500, message: 'Ocorreu um erro inesperado.' },
  VALIDATION_FAILED: { status: 422, message: 'Invalid request.' },
  MALFORMED_REQUEST: { status: 400, message: 'The request is malformed.' },
  WAITLIST_LOCKED: { status: 409, message: 'Remote waitlist closed.' },
  ENTRY_NOT_ACTIVE: { status: 409, message: 'You are no longer on the waitlist.' },
  SHARED_LINK_READ_ONLY: { status: 403, message: 'A shared link cannot change the entry.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  UNAUTHENTICATED: { status: 401, message: 'Please log in.' },
  FORBIDDEN: { status: 403, message: 'You may not do this.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The upload is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This file type is not supported.' },
  ALREADY_ON_WAITLIST: {
    status: 409,
    message: 'You are already on this waitlist; we sent the link to your phone again by SMS.',
  },
  WAITLIST_FULL: { status: 409, message: 'The waitlist is full right now. Please try again later or talk to the host.' },
  TOO_MANY_OPEN_FROM_ADDRESS: {
    status: 409,
    message: 'Too many parties are on this waitlist from this connection already. Please ask the host to add you.',
  },
  IMAGE_QUOTA_EXCEEDED: { status: 409, message: "The venue's image quota is full: delete an image first." },
  PHONE_COUNTRY_NOT_ALLOWED: { status: 422, message: 'This venue sends its waitlist SMS only to phone numbers of some countries.' },
  OWNER_ONLY: { status: 403, message: 'Only an owner of this venue may do this.' },
  LAST_OWNER: { status: 409, message: 'A venue keeps at least one owner: make another member owner first.' },
  ALREADY_STAFF: { status: 409, message: 'This person is already on the venue team.' },
  STAFF_NOT_FOUND: { status: 404, message: 'No such member in this venue team.' },
  INVITE_NOT_FOUND: { status: 404, message: 'This invitation does not exist or was withdrawn.' },
  INVITE_EXPIRED: { status: 410, message: 'This invitation has expired. Ask the venue for a new one.' },
  INVITE_USED: { status: 410, message: 'This invitation was already used.' },
  INVITE_SENDER_NOT_ALLOWED: {
    status: 410,
    message: 'Whoever sent this invitation may no longer invite to this venue team. Ask the venue for a new one.',
  },
  WRONG_PASSWORD: { status: 403, message: 'The password is not right.' },
  PARTY_SENDS_LIMITED: { status: 429, message: 'This party was sent several messages just now: wait a few minutes before sending again.' },
  VENUE_SENDS_LIMITED: { status: 429, message: 'This venue sent its hourly maximum of messages: wait before sending again.' },
  MESSAGE_TOO_LONG: { status: 422, message: 'The message is longer than the SMS parts a message may cost: shorten it.' },
  TEMPLATE_LINK_NOT_ALLOWED: {
    status: 422,
    message: "Messages may link only to the venue's own pages and its menu and reservation sites.",
  },
  SERVER_RESTARTING: { status: 503, message: 'This server is restarting. Please try again in a moment.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: 'This Idempotency-Key was used for a different join: send a new key with a new join.',
  },
};

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  /** For validation errors: the path of the offending field, dotted (`customer.phone`). */
  field?: string;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorBody).code === 'string' &&
    typeof (value as ApiErrorBody).message === 'string'
  );
}
