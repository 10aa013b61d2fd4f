export * from './constants.js';
export * from './errors.js';
export * from './events.js';
export * from './health.js';
export * from './ids.js';
export * from './images.js';
export * from './venue.js';
export * from './waitlist.js';
