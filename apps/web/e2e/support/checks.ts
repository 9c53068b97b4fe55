// The two checks every screen spec makes: WCAG 2.1 AA by axe-core, and no sideways scroll
// on a phone (a page wider than the screen hides its right edge from a thumb).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Waits for the page's finite CSS transitions and animations to end. axe measures colour
 * contrast with the opacity of the moment, so a toast caught in its 200 ms fade-out reads
 * as grey on black; endless ones (a spinner, the alarm's pulse) are left running.
 */
async function settleAnimations(page: Page) {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => {
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end);
    });
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** axe's WCAG 2.1 AA violations on the page at rest, one readable line per rule and nodes. */
export async function axeViolations(page: Page): Promise<string[]> {
  await settleAnimations(page);
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
