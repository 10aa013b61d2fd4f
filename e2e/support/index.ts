/** The shared e2e harness: see e2e/README.md. */
export { startVezServer, freePort, repoRoot, type VezServer, type StartOptions } from './server.js';
export { launchBrowser, phoneContext, desktopContext, noonZone, CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser.js';
export { saveScreenshot, SCREENSHOT_DIR } from './screenshots.js';
export { axeViolations, AXE_TAGS, type AxeViolationSummary } from './axe.js';
export { setWaitlistState, queryRows, updateRows } from './db.js';
export { DEMO_BISTRO_ID, DEMO_CLUB_ID, UNKNOWN_VENUE_ID } from './demo.js';
export { patchVenueSettings, putWaitlistState, staffCookie, DEMO_STAFF } from './host-api.js';
