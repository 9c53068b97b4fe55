// The landing page and the registration form are prerendered at build time (scripts/
// prerender.mjs) and hydrated in the browser (src/main.tsx): their text is in the HTML the
// server sends for GET / and GET /register, React adopts those nodes instead of painting the
// page again, and every other path gets the empty shell.
import type { Page } from '@playwright/test';
import { registerRider, signInWithToken } from './support/api';
import { expect, test } from './support/fixtures';

const HERO_TEXT = 'Three trials. One island.';

/** Console errors and warnings, page errors, and CSP refusals, from the moment the page opens. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    // Map tiles are refused on purpose (support/fixtures.ts): the browser reports each one.
    if (/tile\.openstreetmap\.org/.test(message.location().url)) return;
    // The app's screens register the service worker, which the tests block (playwright.config.ts).
    if (message.text() === 'Service Worker registration blocked by Playwright') return;
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** Resolves once React owns the hero paragraph (hydrated, or rendered anew). */
async function waitForReact(page: Page) {
  await page.waitForFunction((text) => {
    const hero = [...document.querySelectorAll('#root p')].find((p) => p.textContent?.includes(text));
    return !!hero && Object.keys(hero).some((key) => key.startsWith('__reactFiber'));
  }, HERO_TEXT);
}

test('GET / and GET /register send their page rendered, every other path the empty shell', async ({ request }) => {
  const landing = await request.get('/');
  expect(landing.status()).toBe(200);
  const html = await landing.text();
  const root = /<div id="root">([\s\S]*)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
  expect(root).toContain(HERO_TEXT);
  expect(root).toContain('<h1 id="hero-title"');
  expect(html).toMatch(/<title>Mindanao Warriors Endurance Rally<\/title>/);
  expect(html).toMatch(/<meta name="description" content="[^"]+"/);
  // Nothing the CSP (script-src and style-src 'self') would refuse.
  expect(root).not.toMatch(/\sstyle=/i);
  expect(html).not.toMatch(/<style\b/i);
  expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);

  for (const path of ['/register', '/register/']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    const form = /<div id="root">([\s\S]*)<\/div>\s*<noscript>/.exec(html)?.[1] ?? '';
    expect(form, path).toMatch(/<h1[^>]*>Join The <span[^>]*>Warriors<\/span><\/h1>/);
    expect(form, path).toContain('<form');
    expect(form, path).toContain('Warrior Identity');
    for (const name of ['firstName', 'lastName', 'email', 'password']) expect(form, path).toContain(`name="${name}"`);
    // Signed out, as the build renders it: no spinner standing in for the form.
    expect(form, path).not.toContain('Authenticating warrior');
    expect(html, path).toMatch(/<title>Register \| Mindanao Warriors Endurance Rally<\/title>/);
    expect(form, path).not.toMatch(/\sstyle=/i);
    expect(html, path).not.toMatch(/<style\b/i);
    expect(html, path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
  }

  for (const path of ['/login', '/user/x', '/me']) {
    const shell = await (await request.get(path)).text();
    expect(shell, path).toContain('<div id="root"></div>');
    expect(shell, path).not.toContain(HERO_TEXT);
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the landing page is readable before any script runs', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Mindanao');
    await expect(page.getByText(HERO_TEXT)).toBeVisible();
    await expect(page.locator('#trials li')).toHaveCount(3);
    await expect(page.getByRole('link', { name: /REGISTER NOW/ })).toHaveAttribute('href', '/register');
  });

  test('the registration form is on screen before any script runs', async ({ page }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Join The Warriors');
    const form = page.getByRole('form', { name: 'Registration' });
    await expect(form.getByLabel('First name')).toBeVisible();
    await expect(form.getByLabel('Email')).toBeVisible();
    await expect(form.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(form.getByRole('heading', { name: /Rider Number/ })).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 412, height: 823 } });

  test('the landing page hydrates in place: no new paint, no console errors, interactive', async ({ page }) => {
    const problems = watchConsole(page);
    await page.addInitScript(() => {
      const w = window as unknown as { removedFromRoot: number; lcp: PerformanceEntry[] };
      w.removedFromRoot = 0;
      w.lcp = [];
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.removedNodes) if (node.nodeType === Node.ELEMENT_NODE) w.removedFromRoot++;
      }).observe(document, { childList: true, subtree: true });
      new PerformanceObserver((list) => w.lcp.push(...list.getEntries())).observe({
        type: 'largest-contentful-paint',
        buffered: true,
      });
    });
    await page.goto('/');
    await waitForReact(page);

    const after = await page.evaluate(() => {
      const w = window as unknown as {
        removedFromRoot: number;
        lcp: (PerformanceEntry & { element: Element | null })[];
      };
      return {
        removed: w.removedFromRoot,
        lcp: w.lcp.map((e) => ({ connected: e.element?.isConnected ?? false, tag: e.element?.tagName })),
        titles: document.querySelectorAll('title').length,
      };
    });
    // React kept every prerendered node (createRoot would have replaced them all), so the
    // largest paint is still the one the HTML made.
    expect(after.removed).toBe(0);
    expect(after.lcp.length).toBeGreaterThan(0);
    expect(after.lcp.every((entry) => entry.connected)).toBe(true);
    expect(after.titles).toBe(1);
    // The first client render after hydration makes og:url absolute (page-meta.tsx): the
    // prerendered tag is adopted and updated, not duplicated.
    const ogUrls = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('meta[property="og:url"]')].map((m) => m.getAttribute('content')),
      );
    await expect.poll(ogUrls).toEqual([expect.stringMatching(/^http:\/\/[^/]+\/$/)]);

    // Hydrated, so the route picker answers.
    const routes = page.locator('#routes');
    await routes.getByRole('button', { name: /Lakan/ }).click();
    await expect(routes.getByRole('button', { name: /Lakan/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(routes.getByRole('heading', { level: 3 })).toHaveText('Lakan');
    // The route colours are SVG fills, not style attributes (which the CSP would refuse).
    await expect(routes.getByRole('button', { name: /Lakan/ }).locator('circle')).toHaveAttribute('fill', '#14b8a6');

    expect(problems).toEqual([]);
  });

  test('a signed-in rider on / still gets My Profile in the header once the session is confirmed', async ({
    page,
    request,
  }) => {
    const rider = await registerRider(request);
    await signInWithToken(page, rider.token, rider.user);
    const problems = watchConsole(page);
    await page.goto('/');
    const account = page.getByRole('navigation', { name: 'Account' });
    await expect(account.getByRole('link', { name: 'My Profile' })).toBeVisible();
    await expect(account.getByRole('link', { name: 'Register' })).toHaveCount(0);
    await expect(page.getByText(HERO_TEXT)).toBeVisible();
    expect(problems).toEqual([]);
  });
  test('the registration form hydrates in place: same nodes, no console errors, interactive', async ({ page }) => {
    const problems = watchConsole(page);
    await page.addInitScript(() => {
      // The prerendered heading and first field, as the HTML made them, before any script ran.
      document.addEventListener('DOMContentLoaded', () => {
        const w = window as unknown as { prerendered: Element[] };
        w.prerendered = [
          document.querySelector('#root h1'),
          document.querySelector('#root input[name="firstName"]'),
          document.querySelector('#root form'),
        ].filter((e): e is Element => e !== null);
      });
    });
    await page.goto('/register');
    // Hydrated: React owns the very nodes the HTML made (a mismatch would have replaced them).
    await page.waitForFunction(() => {
      const nodes = (window as unknown as { prerendered?: Element[] }).prerendered ?? [];
      return (
        nodes.length === 3 &&
        nodes.every((node) => node.isConnected && Object.keys(node).some((key) => key.startsWith('__reactFiber')))
      );
    });
    await expect(page.locator('title')).toHaveCount(1);

    // Hydrated, so the form answers: typing is React state, and the number picker loads.
    await page.getByLabel('First name').fill('Lapu');
    await expect(page.getByLabel('First name')).toHaveValue('Lapu');
    await page.getByLabel('Search numbers').fill('7');
    await expect(page.locator('[data-rider-number="7"]')).toBeVisible();

    expect(problems).toEqual([]);
  });

  test('a signed-in rider opening /register is still sent on to the profile', async ({ page, request }) => {
    const rider = await registerRider(request);
    await signInWithToken(page, rider.token, rider.user);
    const problems = watchConsole(page);
    await page.goto('/register');
    // An unverified rider's profile sends them on to /verify.
    await expect(page).toHaveURL(/\/(?:profile|verify)$/);
    await expect(page.getByRole('form', { name: 'Registration' })).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
