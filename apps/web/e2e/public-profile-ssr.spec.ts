// A rider's public profile (/user/{id}) is rendered by the server with its data
// (apps/server/src/modules/profiles/profile-page.routes.ts): readable with no script at all,
// then hydrated in place from the answer inlined in the page, without asking for it again.
import type { Page } from '@playwright/test';
import { bearer, type RegisteredRider, registerRider, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { expect, test } from './support/fixtures';
import { rememberServerNodes, waitForHydration, watchConsole } from './support/hydration';
import { pngFixture } from './support/images';

/** Requests for the profile's API answer (which the page must not need). */
function watchProfileRequests(page: Page, id: string): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/api/users/${id}/profile`) asked.push(request.url());
  });
  return asked;
}

/** The server-rendered heading and Give Fire button. */
const SERVER_NODES = ['#root h1', '#root main button'];

let rider: RegisteredRider;
const KIT = 'Lapu';

test.beforeAll(async ({ request }) => {
  rider = await registerRider(request, { firstName: KIT, lastName: 'Lapu-Lapu' });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the profile is on screen as the server sends it', async ({ page }) => {
    await page.goto(`/user/${rider.user.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(KIT.toUpperCase());
    await expect(page.getByText(`${KIT} Lapu-Lapu`)).toBeVisible();
    // Until the scripts own the page a tap would do nothing: the buttons wait, disabled.
    await expect(page.getByRole('button', { name: 'GIVE FIRE' })).toBeDisabled();
    await expect(page.getByRole('button', { name: /Share/ })).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Warrior Stats' })).toBeVisible();
    await expect(page).toHaveTitle(`${KIT.toUpperCase()} — Warrior Profile | Mindanao Warriors Endurance Rally`);
  });
});

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('hydrates in place from the inlined answer: no second request, no console errors', async ({ page }) => {
      const problems = watchConsole(page);
      const asked = watchProfileRequests(page, rider.user.id);
      await rememberServerNodes(page, SERVER_NODES);
      await page.goto(`/user/${rider.user.id}`);
      await waitForHydration(page);
      await expect(page.locator('title')).toHaveCount(1);

      // Hydrated, so it answers: the share dialog carries the page's absolute link.
      await page.getByRole('button', { name: /Share/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Share Profile' });
      await expect(dialog.getByLabel('Profile link')).toHaveValue(new RegExp(`^http://[^/]+/user/${rider.user.id}$`));
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      // A signed-out visitor is told why fire is off (as the server rendered it).
      await expect(page.getByText('Not logged in - fire functionality disabled')).toBeVisible();
      // The comments load after hydration as before.
      await expect(page.getByText('Loading support messages...')).toHaveCount(0);

      await expectNoViolations(page);
      await expectNoSidewaysScroll(page);
      expect(asked).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
}

test('a signed-in visitor hydrates the same page, then gets their own controls', async ({ page, request }) => {
  const visitor = await registerRider(request, { firstName: 'Bituin' });
  await signInWithToken(page, visitor.token, visitor.user);
  const problems = watchConsole(page);
  const asked = watchProfileRequests(page, rider.user.id);
  await rememberServerNodes(page, SERVER_NODES);
  await page.goto(`/user/${rider.user.id}`);
  await waitForHydration(page);
  // Once the session is confirmed the signed-out note goes: the page knows its visitor.
  await expect(page.getByText('Not logged in - fire functionality disabled')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(KIT.toUpperCase());
  expect(asked).toEqual([]);
  expect(problems).toEqual([]);
});

test('the picture at the head of the profile is its 480 px copy, named in the served HTML', async ({
  page,
  request,
}) => {
  const pictured = await registerRider(request, { firstName: 'Sinag' });
  const uploaded = await request.post('/api/upload/profile-image', {
    headers: bearer(pictured.token),
    multipart: { profileImage: { name: 'me.png', mimeType: 'image/png', buffer: pngFixture(1200, 900) } },
  });
  expect(uploaded.status()).toBe(201);

  const html = await (await request.get(`/user/${pictured.user.id}`)).text();
  expect(html).toContain(`/api/public/profile-image/${pictured.user.id}?size=display`);

  const images: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/profile-image/')) images.push(response.url());
  });
  await page.goto(`/user/${pictured.user.id}`);
  const photo = page.getByRole('img', { name: /^sinag$/i });
  await expect(photo).toBeVisible();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]))
    .toEqual([480, 480]);
  // The 1200 px original is never fetched.
  expect(images.length).toBeGreaterThan(0);
  expect(images.every((url) => url.endsWith('?size=display'))).toBe(true);
});

test('an unknown rider gets the usual not-found page', async ({ page }) => {
  await page.goto('/user/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Warrior Not Found' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('User not found');
});
