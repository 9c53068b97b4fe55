// Web Push in a real browser for the specs: the full Chromium (the e2e shell denies
// notifications whatever is granted; the full one shows them headless), and the push
// service's delivery to a page's service worker through the DevTools protocol, as a browser's
// push service would hand it over.
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export async function notifyingBrowser(baseURL: string, viewport = { width: 360, height: 740 }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    baseURL,
    serviceWorkers: 'allow',
    viewport,
    permissions: ['notifications'],
  });
  const page = await context.newPage();
  // Map tiles are never fetched in tests (support/fixtures.ts does this for its own pages).
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  return { browser, context, page };
}

/**
 * Once `page`'s origin has its service worker, answers a function that delivers a push
 * payload (the decrypted text, as `event.data.text()` reads it) to that worker.
 */
export async function serviceWorkerPush(page: Page, origin: string): Promise<(data: string) => Promise<void>> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  return async (data) => {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data });
  };
}
