import { expectNoSidewaysScroll } from './support/checks';
import { expect, test } from './support/fixtures';

test('landing page: metadata, trials, classified routes and calls to action', async ({ page }) => {
  const mapChunks: string[] = [];
  page.on('request', (r) => {
    if (/\/assets\/route-map-[^/]+\.js$/.test(r.url())) mapChunks.push(r.url());
  });
  await page.goto('/');

  await expect(page).toHaveTitle('Mindanao Warriors Endurance Rally');
  const meta = (selector: string) => page.locator(`head meta[${selector}]`).first();
  await expect(meta('property="og:type"')).toHaveAttribute('content', 'website');
  await expect(meta('property="og:url"')).toHaveAttribute('content', /\/$/);
  await expect(meta('property="og:title"')).toHaveAttribute('content', 'Mindanao Warriors Endurance Rally');
  await expect(meta('property="og:image"')).toHaveAttribute('content', /\/og-image\.png$/);
  await expect(meta('name="twitter:card"')).toHaveAttribute('content', 'summary_large_image');
  await expect(meta('name="description"')).toHaveAttribute('content', /.+/);

  // Trials: three cards, each with an OBR price, the badge and the struck-through price.
  const trials = page.locator('#trials li');
  await expect(trials).toHaveCount(3);
  await expect(trials.filter({ hasText: 'Bagani' })).toContainText('1213KM');
  await expect(trials.filter({ hasText: 'Bagani' }).locator('s')).toContainText('₱3,000');
  await expect(trials.filter({ hasText: 'Bagani' })).toContainText('₱2,800');
  await expect(trials.getByText('P200 OFF')).toHaveCount(3);

  // The map is not part of the first load; it arrives as the routes section comes near.
  expect(mapChunks).toEqual([]);
  const routes = page.locator('#routes');
  await routes.scrollIntoViewIfNeeded();
  await expect(routes.locator('.leaflet-container')).toBeAttached();
  expect(mapChunks.length).toBe(1);

  await expect(routes.getByRole('button', { name: /Bagani/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(routes.getByRole('heading', { level: 3 })).toHaveText('Bagani');
  await expect(routes.getByText('1213KM · 5 stops')).toBeVisible();
  await routes.getByRole('button', { name: /Lakan/ }).click();
  await expect(routes.getByRole('heading', { level: 3 })).toHaveText('Lakan');
  await expect(routes.getByText('603KM · 4 stops')).toBeVisible();
  for (const label of ['Start/Finish', 'Mountain', 'Major Stop', 'Checkpoint']) {
    await expect(routes.getByRole('list', { name: 'Map legend' })).toContainText(label);
  }

  // Covered in every state, fixed and without controls.
  const overlay = page.getByTestId('route-overlay');
  await expect(overlay).toContainText('ROUTE CLASSIFIED');
  await expect(overlay).toContainText('FINAL COORDINATES');
  await expect(overlay).toContainText('COMING SOON');
  await expect(routes.locator('.leaflet-control-zoom')).toHaveCount(0);
  await expect(routes.locator('.leaflet-marker-icon')).toHaveCount(4);
  const box = await routes.locator('.leaflet-container').boundingBox();
  expect(Math.round(box?.height ?? 0)).toBe(500);

  // Parallax: at 768px and wider the layer moves down by half the scroll offset.
  await page.evaluate(() => window.scrollTo(0, 1000));
  await expect
    .poll(() => page.getByTestId('parallax-layer').evaluate((el) => getComputedStyle(el).transform))
    .toBe('matrix(1, 0, 0, 1, 0, 500)');

  await page.getByRole('link', { name: 'JOIN THE TRIBE' }).click();
  await page.waitForURL('**/register');
  await page.goto('/');
  await page.getByRole('link', { name: /REGISTER NOW/ }).click();
  await page.waitForURL('**/register');
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
  await page.waitForURL('**/login');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the landing page fits 360px and has no parallax', async ({ page }) => {
    await page.goto('/');
    await expectNoSidewaysScroll(page);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect
      .poll(() => page.getByTestId('parallax-layer').evaluate((el) => getComputedStyle(el).transform))
      .toBe('none');
  });

  for (const path of ['/register', '/login', '/forgot-password', '/reset-password?token=x']) {
    test(`${path} has no horizontal scroll at 360px`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
    });
  }
});
