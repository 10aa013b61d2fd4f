import * as z from 'zod/mini';

/** Venue ids are 24 lowercase hex characters (docs/product.md §3). */
export const VENUE_ID_PATTERN = /^[0-9a-f]{24}$/;
/** Entry ids and shared ids: 22 base64url characters (16 random bytes, 128 bits). */
export const ENTRY_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const VenueId = z.string().check(z.regex(VENUE_ID_PATTERN));
export const EntryId = z.string().check(z.regex(ENTRY_ID_PATTERN));

export const isVenueId = (value: string): boolean => VENUE_ID_PATTERN.test(value);
export const isEntryId = (value: string): boolean => ENTRY_ID_PATTERN.test(value);
