import { VENUE_INFO_STORAGE_KEY } from '@vez/contract';
import type { VenueInfo } from './venue-info';

/** Venue info is kept in sessionStorage under `venueInfo` and reused when the id matches. */
export function readCachedVenueInfo(venueId: string): VenueInfo | undefined {
  try {
    const raw = sessionStorage.getItem(VENUE_INFO_STORAGE_KEY);
    if (!raw) return undefined;
    const info = JSON.parse(raw) as VenueInfo;
    return info && info._id === venueId && info.settings && info.color ? info : undefined;
  } catch {
    return undefined;
  }
}

export function writeCachedVenueInfo(info: VenueInfo): void {
  try {
    sessionStorage.setItem(VENUE_INFO_STORAGE_KEY, JSON.stringify(info));
  } catch {
    // Storage full or disabled (private mode): the venue is simply fetched again next time.
  }
}

/** The venue of this session, whatever its id (the terms page has none in its path). */
export function readLastVenueInfo(): VenueInfo | undefined {
  try {
    const raw = sessionStorage.getItem(VENUE_INFO_STORAGE_KEY);
    const info = raw ? (JSON.parse(raw) as VenueInfo) : undefined;
    return info?.color ? info : undefined;
  } catch {
    return undefined;
  }
}
