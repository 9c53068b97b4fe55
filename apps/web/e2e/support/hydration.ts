// Pages the server sends rendered (a public profile, My Profile): the checks that React
// adopted the very nodes the HTML brought, with nothing said in the console on the way.
import type { Page } from '@playwright/test';

/** Console errors and warnings (a hydration mismatch is one), page errors, and CSP refusals. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    // The app's screens register the service worker, which the tests block (playwright.config.ts).
    if (message.text() === 'Service Worker registration blocked by Playwright') return;
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Keeps the nodes matching `selectors` as the HTML made them, before any script ran. */
export async function rememberServerNodes(page: Page, selectors: readonly string[]) {
  await page.addInitScript((wanted) => {
    document.addEventListener('DOMContentLoaded', () => {
      const w = window as unknown as { rendered: Element[]; wanted: number };
      w.wanted = wanted.length;
      w.rendered = wanted.map((s) => document.querySelector(s)).filter((e): e is Element => e !== null);
    });
  }, selectors);
}

/** Resolves once React owns the very nodes the server sent (a mismatch would have replaced them). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const { rendered = [], wanted } = window as unknown as { rendered?: Element[]; wanted?: number };
    return (
      rendered.length === wanted &&
      rendered.every((node) => node.isConnected && Object.keys(node).some((key) => key.startsWith('__reactFiber')))
    );
  });
}
