// Issue 16: riders and staff change their own password; other sessions end, this one stays.
import { logIn } from './support/api';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';

async function fillChange(page: import('@playwright/test').Page, current: string, next: string) {
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current Password', { exact: true }).fill(current);
  await form.getByLabel('New Password', { exact: true }).fill(next);
  await form.getByLabel('Confirm New Password', { exact: true }).fill(next);
  await form.getByRole('button', { name: 'Change Password' }).click();
}

test('a rider changes their password on My Profile; another device is signed out', async ({ page, browser }) => {
  const rider = createUser('participant');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await logIn(otherPage, rider.email, rider.password);
  await otherPage.waitForURL('**/me', { timeout: 20_000 });

  await logIn(page, rider.email, rider.password);
  await page.waitForURL('**/me', { timeout: 20_000 });
  await page.getByRole('tab', { name: 'Password' }).click();
  await fillChange(page, 'Not-my-password1', 'Kalinaw-Trail-88');
  await expect(toast(page, 'Your current password is incorrect')).toBeVisible();
  await fillChange(page, rider.password, 'Password1');
  await expect(
    toast(page, 'This password is too common and easy to guess. Please choose a less predictable one.'),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('change-password-rider.png'), fullPage: true });
  await fillChange(page, rider.password, 'Kalinaw-Trail-88');
  await expect(toast(page, 'Password changed. You have been signed out on your other devices.')).toBeVisible();

  // This device stays signed in; the other one is sent to log in on its next call.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Password' })).toBeVisible();
  // Bounded waits, so a failure names its step rather than the test's 60 s.
  await otherPage.reload({ timeout: 20_000 });
  await otherPage.waitForURL('**/login', { timeout: 20_000 });
  await other.close();
});

test('a staff member changes their password in the console settings', async ({ page, browser }) => {
  const admin = createUser('admin');
  await logIn(page, admin.email, admin.password);
  await page.waitForURL('**/admin');
  await page.goto('/admin?tab=settings');
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('change-password-console.png'), fullPage: true });
  await fillChange(page, admin.password, 'Command-Post-77');
  await expect(toast(page, 'Password changed. You have been signed out on your other devices.')).toBeVisible();
  const fresh = await browser.newContext();
  const freshPage = await fresh.newPage();
  await logIn(freshPage, admin.email, 'Command-Post-77');
  await freshPage.waitForURL('**/admin');
  await fresh.close();
});
