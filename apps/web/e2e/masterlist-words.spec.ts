// Issue 41: the masterlist's participant column broke kit names mid-word at 1280 px ("No Kit
// Nam e"): the body's overflow-wrap: anywhere let the table squeeze the column below its
// longest word. Words in that column now wrap only between them; on a phone the table
// stacks into cards whose column names ("VERIFICATION") are not broken either, and still
// fits. A screenshot of each width is kept to look at.
import type { Locator, Page, TestInfo } from '@playwright/test';
import { logIn, registerRider } from './support/api';
import { expectNoSidewaysScroll } from './support/checks';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';

/**
 * The words of each element's text that the browser laid out over more than one line (a
 * hyphen is a place a word may break: "Dimaguiba-" and "Santisteban" are two here).
 */
function brokenWords(cells: Locator) {
  return cells.evaluateAll((elements) =>
    elements.flatMap((element) => {
      const text = element.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      const broken: string[] = [];
      const content = text.textContent ?? '';
      for (const match of content.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
      return broken;
    }),
  );
}

/**
 * The column names a stacked card shows before each cell (a ::before box of fixed width)
 * whose longest word is wider than that box, so the browser must break it ("VERIFICATIO N").
 */
function squeezedLabels(page: Page) {
  return page.locator('tbody td[data-label]').evaluateAll((cells) => {
    const canvas = document.createElement('canvas').getContext('2d');
    if (!canvas) throw new Error('no canvas');
    const squeezed = new Set<string>();
    for (const cell of cells) {
      const label = getComputedStyle(cell, '::before');
      if (label.display === 'none' || label.content === 'none') continue;
      canvas.font = label.font;
      const spacing = Number.parseFloat(label.letterSpacing) || 0;
      const text = cell.getAttribute('data-label') ?? '';
      const shown = label.textTransform === 'uppercase' ? text.toUpperCase() : text;
      for (const word of shown.split(/\s+/)) {
        const width = canvas.measureText(word).width + spacing * word.length;
        if (width > Number.parseFloat(label.width)) squeezed.add(word);
      }
    }
    return [...squeezed];
  });
}

async function look(page: Page, info: TestInfo, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/admin?tab=masterlist');
  const names = page.getByTestId('masterlist-kit-name');
  await expect(names.first()).toBeVisible();
  await expect(names.filter({ hasText: 'No Kit Name' }).first()).toBeVisible();
  expect(
    await brokenWords(page.locator('[data-testid=masterlist-kit-name], [data-testid=masterlist-full-name]')),
  ).toEqual([]);
  if (width < 640) expect(await squeezedLabels(page)).toEqual([]);
  await page.screenshot({ path: info.outputPath(`masterlist-${width}.png`), fullPage: true });
}

test('the masterlist never breaks a participant’s words, at 1280 px and on a phone', async ({
  page,
  request,
}, info) => {
  // Riders registered without a kit name show "No Kit Name"; one with a long name too.
  await registerRider(request);
  await registerRider(request, { firstName: 'Maximiliano', lastName: 'Dimaguiba-Santisteban' });
  const admin = createUser('admin');
  await logIn(page, admin.email, admin.password);
  await expect(page).not.toHaveURL(/\/login$/);

  await look(page, info, 1280);
  await look(page, info, 360);
  await expectNoSidewaysScroll(page);
});
