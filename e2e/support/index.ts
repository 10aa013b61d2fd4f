/** The shared e2e harness: see e2e/README.md. */
export { startVezServer, freePort, repoRoot, type VezServer, type StartOptions } from './server';
export { launchBrowser, phoneContext, desktopContext, CHROMIUM_FLAGS, CHROMIUM_PATH } from './browser';
export { saveScreenshot, SCREENSHOT_DIR } from './screenshots';
export { axeViolations, AXE_TAGS, type AxeViolationSummary } from './axe';
export { setWaitlistState, queryRows } from './db';
export { DEMO_BISTRO_ID, DEMO_CLUB_ID, UNKNOWN_VENUE_ID } from './demo';
