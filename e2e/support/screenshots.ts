import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './server.js';

export const SCREENSHOT_DIR = path.join(repoRoot, 'e2e/screenshots');

/** Saves e2e/screenshots/<name>.png (the visible viewport; `fullPage` for the whole page). */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Let animations settle and fonts render before the picture is taken.
  await page.evaluate(() => document.fonts?.ready);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
  return file;
}
