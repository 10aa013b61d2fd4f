/**
 * The estimate module's public face (docs/ARCHITECTURE.md, Modules): what the queue asks of the
 * wait estimate. Its math, its rows and its caches stay inside.
 */
export {
  type Before,
  type Estimate,
  type PaceBook,
  EMPTY_BOOK,
  VENUE_WIDE_BAND,
  estimate,
  nextPace,
  nextSlot,
  slotOf,
} from './estimator.js';
export { type FloorSeat, forecastFloor, quoteOfSeat } from './floor.js';
export { type OpenParty, type OpenQueueReader, type VenueBook, findBook, recordFloorEvent, relistFloor } from './floor-events.js';
export { type PaceCache, createPaceCache } from './pace-cache.js';
export { findPace, upsertPace, upsertPaceSlot } from './paces.repository.js';
