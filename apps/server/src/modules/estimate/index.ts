/**
 * The estimate module's public face (docs/ARCHITECTURE.md, Modules; the math and this list in
 * README.md): what the queue asks of the wait estimate. Its math, its rows and its memos stay inside.
 */

// The venue's estimate state, worked out once per change of the venue and kept for every reader (pace-cache.ts).
export { type PaceBook, type Before, type Estimate, EMPTY_BOOK, VENUE_WIDE_BAND, slotOf } from './estimator.js';
export { type OpenParty, type OpenQueueReader, type VenueBook, findBook } from './floor-events.js';
export { type PaceCache, createPaceCache } from './pace-cache.js';

// A join's quote and a position read's: the estimator's, or the floor's for a venue that lists its tables.
export { estimate } from './estimator.js';
export { type FloorSeat, type FloorTail, copyTail, forecastBehind, forecastFloor, quoteOfSeat } from './floor.js';

// The events it learns from (the console's actions): a seat, and the floor's calls, seats and ends.
export { learnFromSeat } from './seat-learning.js';
export { recordFloorEvent, relistFloor } from './floor-events.js';
