// The two checks every screen spec makes: WCAG 2.1 AA by axe-core, and no sideways scroll
// on a phone (a page wider than the screen hides its right edge from a thumb).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe's WCAG 2.1 AA violations on the page as it is now, one readable line per rule and nodes. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
}

export async function expectNoViolations(page: Page) {
  const summary = await axeViolations(page);
  expect(summary, summary.join('\n')).toEqual([]);
}

/** The document is no wider than the viewport. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll, `page is ${widths.scroll} px wide in a ${widths.client} px viewport`).toBeLessThanOrEqual(
    widths.client,
  );
}
