import { logIn, registerRider } from './support/api';
import { createUser } from './support/cli';
import { PASSWORD } from './support/env';
import { expect, test, toast } from './support/fixtures';

test('an unverified rider is sent to /verify after logging in', async ({ page, request }) => {
  const rider = await registerRider(request);
  await logIn(page, rider.email, rider.password);
  await page.waitForURL('**/verify');
  await expect(page.getByRole('heading', { name: 'VERIFICATION PENDING' })).toBeVisible();
  // No code in navigation state or storage on this device: it comes from the user record.
  await expect(page.getByTestId('verification-code')).toHaveText(rider.user.verificationCode ?? '');
});

test('a verified participant lands on /me, and Enter submits the form', async ({ page }) => {
  const participant = createUser('participant');
  await page.goto('/login');
  await page.getByLabel('Email').fill(participant.email);
  await page.getByLabel('Password', { exact: true }).fill(participant.password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL('**/me');

  // Already signed in: /login and /register both send the rider on.
  await page.goto('/login');
  await page.waitForURL('**/me');
  await page.goto('/register');
  await page.waitForURL('**/profile');
});

test('an admin lands on /admin', async ({ page }) => {
  const admin = createUser('admin');
  await logIn(page, admin.email, admin.password);
  await page.waitForURL('**/admin');
});

test('login shows the missing-field and server messages, and toggles the password', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'ENTER THE REALM' }).click();
  await expect(toast(page, 'Please enter both email and password')).toBeVisible();

  const password = page.getByLabel('Password', { exact: true });
  await password.fill('Wrong1Password');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  await page.getByLabel('Email').fill('nobody-here@example.com');
  await page.getByRole('button', { name: 'ENTER THE REALM' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: 'JOIN THE WARRIORS' }).click();
  await page.waitForURL('**/register');
});

test('signing out of /verify returns to /login and forgets the session', async ({ page, request }) => {
  const rider = await registerRider(request);
  await logIn(page, rider.email, PASSWORD);
  await page.waitForURL('**/verify');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(toast(page, 'Status updated!')).toBeVisible();
  await expect(page.getByText(/Last updated:/)).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.waitForURL('**/login');
  // The session ends as the old page unmounts, a moment after the URL changes.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
  await page.goto('/verify');
  await page.waitForURL('**/login');
});
