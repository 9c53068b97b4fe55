import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every test runs offline from the map tile host: tile requests are refused at once so
 * they neither wait on DNS nor depend on the internet (the overlay covers the map anyway).
 */
export const test = base.extend<{ offlineTiles: undefined }>({
  offlineTiles: [
    async ({ page }, use) => {
      await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect };

export function toast(page: Page, text: string | RegExp) {
  return page.getByTestId('toast').filter({ hasText: text });
}
