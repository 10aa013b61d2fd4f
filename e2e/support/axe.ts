import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

export interface AxeViolationSummary {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * Runs axe (WCAG 2.0/2.1/2.2 A and AA) on the page as it is now. The page must come from a
 * context (`browser.newContext()`), not `browser.newPage()`. Returns a compact list, empty when
 * clean, so `expect(await axeViolations(page)).toEqual([])` prints what is wrong.
 */
export async function axeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<AxeViolationSummary[]> {
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const result = await builder.analyze();
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}
