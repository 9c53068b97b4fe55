import { logIn, registerRider, signInWithToken } from './support/api';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';

test('signed-out visitors are sent to /login, replacing the history entry', async ({ page }) => {
  await page.goto('/');
  await page.goto('/me');
  await page.waitForURL('**/login');
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});

test('an unverified rider is held at /verify', async ({ page, request }) => {
  const rider = await registerRider(request);
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await page.waitForURL('**/verify');
});

test('an officer opening a QR sticker page sees Access Denied with the roles', async ({ page }) => {
  const officer = createUser('officer');
  await logIn(page, officer.email, officer.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin/print-qr/x');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have permission to access this area.")).toBeVisible();
  await expect(page.getByText('One of: admin, developer')).toBeVisible();
  await expect(page.getByText('Your role: officer')).toBeVisible();

  // The console itself is open to officers.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin$/);
});

test('a participant wandering into the console is sent home', async ({ page }) => {
  const participant = createUser('participant');
  await logIn(page, participant.email, participant.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin');
  await page.waitForURL((url) => url.pathname === '/');
});

test('a verified rider on /verify sees PAYMENT VERIFIED! and moves on after 2 seconds', async ({ page }) => {
  const participant = createUser('participant');
  await logIn(page, participant.email, participant.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.waitForURL('**/me');
  await page.goto('/verification-success');
  await expect(page.getByRole('heading', { name: 'PAYMENT VERIFIED!' })).toBeVisible();
  await expect(page.getByText('Payment verified! Redirecting to your profile...')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Access My Profile' })).toBeVisible();
  await page.waitForURL('**/me', { timeout: 5_000 });
});
