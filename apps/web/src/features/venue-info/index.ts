/** The venue-info feature: what other routes may use. */
export { useVenueInfo } from './hooks/use-venue-info';
export { useVenueBranding } from './hooks/use-venue-branding';
export { VenueHeader } from './components/venue-header';
export { VenueInaccessibleModal } from './components/venue-inaccessible-modal';
export { reservationFallback } from './api/load-venue-info';
export { isOnlyThemeProblem, venueNameIn, type VenueInfo, type VenueInfoResult } from './lib/venue-info';
export { readLastVenueInfo } from './lib/venue-info-storage';
