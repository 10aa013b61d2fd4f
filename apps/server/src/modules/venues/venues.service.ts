import {
  type BootSpotlight,
  ErrorCode,
  isVenueId,
  type PartySizesResponse,
  type ThemeResponse,
  type VenueResponse,
  type WaitlistStatusesResponse,
  spotlightImages,
} from '@vez/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { AppError } from '../../lib/app-error.js';
import { type Venue, reservationUrlOf, venueFromRow } from './venue.js';
import { forgetVenue, keepVenue, markVenue, recallVenue } from './venue-cache.js';
import { findVenueById, updateVenue } from './venues.repository.js';

export function assertVenueId(venueId: string): void {
  if (!isVenueId(venueId)) throw new AppError(ErrorCode.INVALID_VENUEID_FORMAT);
}

/** The venue, or VENUE_INFO_NOT_FOUND. Validates the id's format first. Kept (venue-cache.ts): treat as read-only. */
export async function getVenue(db: Kysely<Database>, venueId: string): Promise<Venue> {
  assertVenueId(venueId);
  const recalled = recallVenue(db, venueId);
  if (recalled) return recalled;
  const mark = markVenue(db, venueId);
  const row = await findVenueById(db, venueId);
  if (!row) throw new AppError(ErrorCode.VENUE_INFO_NOT_FOUND);
  return keepVenue(db, venueFromRow(row), mark);
}

/**
 * `hasWhatsAppJoin`: the deployment has an approved WhatsApp join template (WHATSAPP_TEMPLATES); only
 * then does a WhatsApp venue ask its parties for consent (docs/product.md §10).
 */
export function toVenueResponse(venue: Venue, smartLinkBaseUrl: string, hasWhatsAppJoin = false): VenueResponse {
  return {
    _id: venue.id,
    slug: venue.slug,
    name: venue.name,
    address: { city: venue.city, neighborhood: venue.neighborhood },
    hasMenu: venue.hasMenu,
    hiredServices: { loginJourney: venue.loginJourney },
    reservationUrl: reservationUrlOf(venue, smartLinkBaseUrl),
    settings: venue.settings,
    channel: venue.settings.channel === 'whatsapp' && hasWhatsAppJoin ? 'whatsapp' : 'sms',
  };
}

export function toPartySizesResponse(venue: Venue): PartySizesResponse {
  return [{ partySizesWidget: { max: venue.maxPartySize }, sections: venue.sections }];
}

export function toThemeResponse(venue: Venue): ThemeResponse {
  return venue.theme;
}

export function toStatusesResponse(venue: Venue): WaitlistStatusesResponse {
  return { waitlist: { locked: venue.waitlistLocked, active: venue.waitlistActive } };
}

/**
 * The header image of a venue's join page, chosen as the app would (docs/product.md §14: inspirational
 * images, or one random active banner), or undefined when the app would show its own placeholder.
 */
export async function bootSpotlightOf(db: Kysely<Database>, imageBaseUrl: string, venueId: string): Promise<BootSpotlight | undefined> {
  if (!isVenueId(venueId)) return undefined;
  const venue = await getVenue(db, venueId);
  const { small, large } = spotlightImages(venue.theme, imageBaseUrl, '');
  return small && large ? { venueId, small, large } : undefined;
}

/** Opens, locks or closes a venue's waitlist (the queue announces it). */
export async function saveWaitlistState(
  db: Kysely<Database>,
  venueId: string,
  state: { active: boolean; locked: boolean },
  now: number,
): Promise<void> {
  await updateVenue(db, venueId, { waitlist_active: state.active ? 1 : 0, waitlist_locked: state.locked ? 1 : 0, updated_at: now });
}

/** Drops this instance's kept copy of a venue: its events (another instance changed it) void it. */
export const forgetKeptVenue = (venueId: string): void => forgetVenue(venueId);

export { hearVenuesThrough, type VenueHearing } from './venue-cache.js';

/** The venue rows other modules read and write (settings, staff, images) go through here, not the repository. */
export { advanceVenueSeq, findVenueById, findVenueBySlug, lockVenueForJoin, updateVenue } from './venues.repository.js';
