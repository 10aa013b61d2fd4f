/** The venue-info feature: what other routes may use. */
export { useVenueInfo } from './hooks/use-venue-info';
export { useVenueBranding } from './hooks/use-venue-branding';
export { BootHeader, VenueHeader } from './components/venue-header';
export { keepBootSpotlight } from './lib/boot-spotlight';
export { VenueInaccessibleModal } from './components/venue-inaccessible-modal';
export { reservationFallback } from './api/load-venue-info';
export { isOnlyThemeProblem, venueNameIn, type VenueInfo, type VenueInfoResult } from './lib/venue-info';
export { readLastVenueInfo } from './lib/venue-info-storage';
