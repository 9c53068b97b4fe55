// The two checks every screen spec makes: WCAG 2.1 AA by axe-core, and no sideways scroll
// on a phone (a page wider than the screen hides its right edge from a thumb).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Rules run on every page whatever their tags, and required to have run. axe 4.13 still
 * marked label-content-name-mismatch (WCAG 2.5.3 Label in Name) experimental and skipped it,
 * so 50 rider-number buttons named "7" while showing "007" passed unseen (issue 26). An axe
 * that drops, renames or again skips one of these fails the check instead of passing quietly.
 */
export const REQUIRED_RULES = ['label-content-name-mismatch'];

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

/**
 * How many CSS animations and transitions have started on the page since the first call.
 * Endless ones start once, so only motion that began meanwhile moves the figure.
 */
async function motionsStarted(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as unknown as { motionsStarted?: number };
    if (w.motionsStarted === undefined) {
      w.motionsStarted = 0;
      for (const type of ['animationstart', 'transitionstart'])
        document.addEventListener(type, () => (w.motionsStarted = (w.motionsStarted ?? 0) + 1), true);
    }
    return w.motionsStarted;
  });
}

/**
 * axe's WCAG 2.1 AA violations on the page at rest, one readable line per rule and nodes.
 * A pass during which something started moving (a toast's time ran out mid-check and it began
 * to fade) measured a page in motion: it is taken again once the motion has ended.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  let results: Awaited<ReturnType<AxeBuilder['analyze']>>;
  for (let pass = 1; ; pass++) {
    await settleAnimations(page);
    const before = await motionsStarted(page);
    results = await new AxeBuilder({ page })
      .options({ rules: Object.fromEntries(REQUIRED_RULES.map((id) => [id, { enabled: true }])) })
      .withTags(WCAG_21_AA)
      .analyze();
    if (pass === 3 || (await motionsStarted(page)) === before) break;
  }
  const ran = new Set(
    [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((r) => r.id),
  );
  return [
    ...REQUIRED_RULES.filter((id) => !ran.has(id)).map(
      (id) => `${id}: did not run under axe-core ${results.testEngine.version}`,
    ),
    ...results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
    ),
  ];
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
