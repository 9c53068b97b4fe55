import { createUser, resetLink } from './support/cli';
import { expect, test, toast } from './support/fixtures';

test('a rider resets the password with an operator link, and the link works once', async ({ page }) => {
  const rider = createUser('participant');
  const link = new URL(resetLink(rider.email));

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByTestId('reset-email')).toHaveText(rider.email);
  await expect(page.locator('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');

  const submit = page.getByRole('button', { name: 'Reset Password' });
  await submit.click();
  await expect(toast(page, 'Please fill in all fields')).toBeVisible();

  const newPassword = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm New Password', { exact: true });
  await newPassword.fill('alllowercase1');
  await confirm.fill('alllowercase1');
  await submit.click();
  await expect(toast(page, 'Password must contain at least one uppercase letter')).toBeVisible();

  await newPassword.fill('Fresh1Password');
  await confirm.fill('Fresh2Password');
  await submit.click();
  await expect(toast(page, /^Passwords do not match$/)).toBeVisible();

  await page.getByRole('button', { name: 'Show confirm new password' }).click();
  await expect(confirm).toHaveAttribute('type', 'text');
  await confirm.fill('Fresh1Password');
  await submit.click();
  await expect(toast(page, 'Password reset successfully!')).toBeVisible();
  await expect(
    page.getByText('Your password has been successfully reset. You can now login with your new password.'),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Continue to Login' }).click();
  await page.getByLabel('Email').fill(rider.email);
  await page.getByLabel('Password', { exact: true }).fill('Fresh1Password');
  await page.getByRole('button', { name: 'ENTER THE REALM' }).click();
  await page.waitForURL('**/me');

  // Used links are dead.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Invalid or expired reset link' })).toBeVisible();
  await page.getByRole('link', { name: 'Request New Reset Link' }).click();
  await page.waitForURL('**/forgot-password');
});

test('a reset link without a token is refused and leads to /forgot-password', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { name: 'Invalid reset link' })).toBeVisible();
  await expect(toast(page, 'Invalid reset link')).toBeVisible();
  await page.waitForURL('**/forgot-password', { timeout: 5_000 });
  await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();
});

test('a made-up token shows the invalid state', async ({ page }) => {
  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByRole('heading', { name: 'Invalid or expired reset link' })).toBeVisible();
});
