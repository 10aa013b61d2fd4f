/** Business constants of docs/product.md §19 and docs/product.md §3, shared by server and client. */
export const PRODUCT_NAME = 'waitlist';
export const DEFAULT_MAX_PARTY_SIZE = 1;
export const CODE_LENGTH = 6;
export const RESEND_COUNTDOWN_START = 60;
export const RESEND_TICK_MS = 500;
export const NOTE_MAX_LENGTH = 255;
export const SESSION_LOCK_MS = 600_000;
/** A repeat join sends the position link again by SMS at most this often per entry (docs/product.md §3). */
export const REPEAT_JOIN_SMS_INTERVAL_MS = 60_000;
/** How long a browser keeps the proof of its own join (docs/product.md §3): longer than any open entry lives. */
export const JOIN_PROOF_KEEP_MS = 24 * 3_600_000;
/** Venue defaults against queue flooding and SMS pumping (docs/product.md §3). */
export const DEFAULT_MAX_WAITING_PARTIES = 200;
export const MAX_WAITING_PARTIES_LIMIT = 10_000;
/**
 * The whole-number settings' limits (docs/product.md §2, §8). A value outside is refused with these
 * limits (a 422 naming the field, and the console before it sends), never clamped
 * (docs/decisions/032-the-door-on-a-busy-night.md).
 */
export const SETTING_LIMITS = {
  maxPartySize: { min: 1, max: 50 },
  holdMinutes: { min: 0, max: 120 },
  gettingCloseAt: { min: 0, max: 50 },
  gettingCloseMinutes: { min: 1, max: 120 },
  maxWaitingParties: { min: 1, max: MAX_WAITING_PARTIES_LIMIT },
} as const;
export const DEFAULT_SMS_COUNTRIES = ['BR'] as const;
export const DEFAULT_COUNTRY = 'br';
export const PREFERRED_COUNTRIES = ['br', 'us'] as const;
export const ORIGIN_LABEL_WIDGET = 'Widget';
export const ORIGIN_LABEL_HOST = 'Host';
export const CREATE_DATA_ORIGIN = 'Waitlist widget';
export const IMAGE_QUALITY = 70;
export const IMAGE_FORMAT = 'webp';
export const COPIED_NOTICE_MS = 2000;
export const MODAL_MAX_WIDTH_PX = 500;
export const MODAL_WIDE_VIEWPORT_PX = 768;
export const DROPDOWN_MAX_HEIGHT_PX = 140;
export const SECTION_NOTE_PREFIX = 'Localização:';
export const LANGUAGES = ['pt', 'en'] as const;
export const VENUE_NAME_LANGUAGES = ['pt', 'en', 'fr', 'es'] as const;
export const DEFAULT_LANGUAGE = 'pt';
export const LANGUAGE_STORAGE_KEY = 'i18n';
export const VENUE_INFO_STORAGE_KEY = 'venueInfo';

export type Language = (typeof LANGUAGES)[number];
export type VenueNameLanguage = (typeof VENUE_NAME_LANGUAGES)[number];

/**
 * Party-size bands of the advanced operation mode (docs/product.md §2): parties are grouped by the
 * table size they need, and `pos` is the place inside the band. Upper bounds, inclusive.
 */
export const PARTY_SIZE_BANDS = [2, 4, 6, Number.POSITIVE_INFINITY] as const;

export function bandOf(partySize: number): number {
  return PARTY_SIZE_BANDS.findIndex((upper) => partySize <= upper);
}
