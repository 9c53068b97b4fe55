import { registerRider, shownRiderNumber, signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { expect, test } from './support/fixtures';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test.describe(`${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('landing page has no WCAG 2.1 AA violations', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // Bring the lazily loaded map in, so it is checked too.
      await page.locator('#routes').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('route-overlay')).toBeVisible();
      await expectNoViolations(page);
    });

    test('register page has no WCAG 2.1 AA violations', async ({ page, request }) => {
      // A number taken before the page loads, so a taken button is on screen and checked too.
      const { riderNumber } = (await registerRider(request)).user;
      await page.goto('/register');
      await page.locator('label:has(input[name=paymentMethod][value=gcash])').click();
      await page.locator('label:has(input[name=tshirtSize][value=CUSTOM])').click();
      await expect(page.getByTestId('payment-instructions')).toContainText('Account holder');
      await expectNoViolations(page);
      // WCAG 2.5.3 Label in Name: a number's name is the number as drawn ("007", not "7"),
      // so a rider who speaks or types what they see reaches it.
      const grid = await page.getByRole('group', { name: 'Rider numbers' }).ariaSnapshot();
      const names = [...grid.matchAll(/- button "(\d+)(?: taken)?"/g)].map((m) => m[1]);
      expect(names).toEqual(Array.from({ length: 50 }, (_, i) => shownRiderNumber(i + 1)));
      await page.getByLabel('Search numbers').fill(String(riderNumber));
      const taken = page.getByRole('button', { name: `${shownRiderNumber(riderNumber)} taken`, exact: true });
      await expect(taken).toBeDisabled();
      await expectNoViolations(page);
      await page.getByRole('button', { name: 'Read Terms and Conditions' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoViolations(page);
    });

    test('login page has no WCAG 2.1 AA violations', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'ENTER THE REALM' })).toBeVisible();
      await expectNoViolations(page);
    });

    test('verify page has no WCAG 2.1 AA violations', async ({ page, request }) => {
      const rider = await registerRider(request);
      await signInWithToken(page, rider.token, rider.user);
      await page.goto('/verify');
      await expect(page.getByRole('heading', { name: 'VERIFICATION PENDING' })).toBeVisible();
      await expectNoViolations(page);
    });

    test('forgot and reset pages have no WCAG 2.1 AA violations', async ({ page }) => {
      await page.goto('/forgot-password');
      await expect(page.getByRole('heading', { name: 'Forgot Password?' })).toBeVisible();
      await expectNoViolations(page);
      await page.goto('/reset-password?token=nope');
      await expect(page.getByRole('heading', { name: 'Invalid or expired reset link' })).toBeVisible();
      await expectNoViolations(page);
    });
  });
}
