import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

/** Debian's Chromium with the flags that work on this machine (shared/toolchain.md). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

/** A 360×640 phone (touch, mobile viewport), Brazilian Portuguese unless `locale` says otherwise. */
export function phoneContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 360, height: 640 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    ...options,
  });
}

/** A 1280×800 desktop window. */
export function desktopContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR', ...options });
}

/**
 * A time zone where it is about noon now: "today" on the console is the browser's day, and the demo's
 * parties joined minutes before the server started, so near midnight they would fall on another day.
 */
export function noonZone(now = new Date()): string {
  const offset = Math.max(-12, Math.min(14, 12 - now.getUTCHours()));
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
