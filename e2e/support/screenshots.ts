import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './server.js';

export const SCREENSHOT_DIR = path.join(repoRoot, 'e2e/screenshots');

/** Saves e2e/screenshots/<name>.png (the visible viewport; `fullPage` for the whole page). */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Let fonts render and images arrive (a hero still loading is not what a diner sees) first.
  await page.evaluate(() => document.fonts?.ready);
  await page
    .waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 5000 })
    .catch(() => undefined);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return file;
}
