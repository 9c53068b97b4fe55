// Event-day console end to end: kit hand-over, the QR sticker (downloaded and decoded),
// a staff-issued reset link used from another browser, and an announcement reaching a
// rider's My Profile.
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import type { UserRecord } from '@rally/shared/contracts/auth';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { sessionOf, signInWithToken } from './support/api';
import { createUser } from './support/cli';
import { uniqueEmail } from './support/env';
import { expect, test, toast } from './support/fixtures';

interface Session {
  email: string;
  password: string;
  token: string;
  user: UserRecord;
}

/** An operator-made participant: active, verified, with a rider code. */
async function rider(request: APIRequestContext): Promise<Session> {
  return sessionOf(request, createUser('participant', uniqueEmail('event-rider')));
}

async function openTab(page: Page, admin: Session, tab: string, heading: string) {
  await signInWithToken(page, admin.token, admin.user);
  await page.goto(`/admin?tab=${tab}`);
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
}

test('an admin hands over all three kit items and the rider’s kit turns complete', async ({ page, request }) => {
  const admin = await sessionOf(request, createUser('admin'));
  const warrior = await rider(request);
  const name = `${warrior.user.firstName} ${warrior.user.lastName}`;

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });

  await openTab(page, admin, 'kit-tracker', 'Kit Tracker');
  await page.getByLabel('Search by name, kit name, email or rider number').fill(warrior.email);
  const row = page.locator(`tr[data-user-id="${warrior.user.id}"]`);
  await expect(row).toBeVisible();
  await expect(page.getByTestId('kit-row')).toHaveCount(1);
  const dot = row.getByTestId('kit-dot');
  await expect(dot).toHaveAttribute('data-complete', 'false');
  await expect(dot).toHaveAttribute('title', 'Kit 0/3 complete');
  const completedBefore = Number(await page.getByTestId('stat-completed-kits').textContent());

  for (const [item, done] of [
    ['T-shirt', 1],
    ['Vest', 2],
    ['Finisher Sleeve', 3],
  ] as const) {
    const box = row.getByRole('checkbox', { name: `${item} given to ${name}` });
    await box.click();
    await expect(box).toBeChecked();
    await expect(dot).toHaveAttribute('title', `Kit ${done}/3 complete`);
  }
  expect(dialogs).toEqual([
    `Are you sure you want to mark as given the T-shirt for ${name}?`,
    `Are you sure you want to mark as given the Vest for ${name}?`,
    `Are you sure you want to mark as given the Finisher Sleeve for ${name}?`,
  ]);
  await expect(dot).toHaveAttribute('data-complete', 'true');
  // The stats follow the toggle.
  await expect(page.getByTestId('stat-completed-kits')).toHaveText(String(completedBefore + 1));

  // Un-giving asks the other question and the kit is pending again.
  await row.getByRole('checkbox', { name: `Vest given to ${name}` }).click();
  await expect(dot).toHaveAttribute('data-complete', 'false');
  expect(dialogs.at(-1)).toBe(`Are you sure you want to mark as not given the Vest for ${name}?`);

  // Notes save by themselves a second after typing stops.
  await row.getByLabel(`Kit notes for ${name}`).fill('Vest swapped for XL, hand over Friday');
  await expect(row.getByText('Saved')).toBeVisible({ timeout: 5_000 });
  await page.getByRole('button', { name: `View kit details of ${name}` }).click();
  const details = page.getByRole('dialog', { name: 'Participant Kit Details' });
  await expect(details.getByText('Vest swapped for XL, hand over Friday')).toBeVisible();
  await expect(details.getByText('Kit 2/3 complete')).toBeVisible();
});

test('an admin opens a rider’s QR sticker, downloads it and the QR holds the rider code', async ({ page, request }) => {
  const admin = await sessionOf(request, createUser('admin'));
  const warrior = await rider(request);
  const riderCode = warrior.user.riderCode as string;
  expect(riderCode).toMatch(/^RC-/);

  await openTab(page, admin, 'id-cards', 'QR Sticker Generator');
  await page.getByLabel('Search by name, email, kit name or rider number').fill(warrior.email);
  const row = page.locator(`tr[data-user-id="${warrior.user.id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByText('Not Printed')).toBeVisible();
  await row.getByRole('button', { name: /View QR sticker of/ }).click();
  const preview = page.getByRole('dialog', { name: 'Ready to Print' });
  await expect(preview.getByText(riderCode)).toBeVisible();

  const popupPromise = page.context().waitForEvent('page');
  await preview.getByRole('button', { name: 'Generate QR Sticker' }).click();
  const sticker = await popupPromise;
  await sticker.waitForLoadState();
  expect(new URL(sticker.url()).pathname).toBe(`/admin/print-qr/${warrior.user.id}`);
  await expect(sticker.getByTestId('qr-sticker')).toHaveAttribute('data-ready', 'true');
  await expect(sticker.getByText('Recommended print size: 5cm x 5cm.')).toBeVisible();
  await expect(sticker.getByText('No Kit Name')).toBeVisible();

  const downloadPromise = sticker.waitForEvent('download');
  await sticker.getByRole('button', { name: 'Download QR Sticker' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`qr-sticker-${riderCode}.png`);
  const png = PNG.sync.read(readFileSync(await download.path()));
  expect([png.width, png.height]).toEqual([500, 500]);
  const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  expect(decoded?.data).toBe(riderCode);
  await sticker.close();

  await preview.getByRole('button', { name: 'Mark as Printed' }).click();
  await expect(toast(page, 'ID marked as printed successfully')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Already Printed' })).toBeVisible();
  await page.getByRole('dialog', { name: 'Already Printed' }).getByRole('button', { name: 'Close' }).first().click();
  await expect(row.getByText('Printed', { exact: true })).toBeVisible();

  // An unknown rider id gets the failure text and a way out.
  await page.goto('/admin/print-qr/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('User not found')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close Window' })).toBeVisible();
});

test('an admin generates a reset link, the rider uses it elsewhere, and the history shows it used', async ({
  browser,
  page,
  request,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const warrior = await rider(request);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

  await openTab(page, admin, 'password-resets', 'Password Reset Management');
  await page.getByLabel('Search users by name, email or kit name').fill(warrior.email);
  const row = page.locator(`[data-testid="reset-user"][data-user-id="${warrior.user.id}"]`);
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Generate Reset Link' }).click();
  const modal = page.getByRole('dialog', { name: 'Password Reset Generated' });
  await expect(modal).toBeVisible();
  await expect(modal.getByText(warrior.email)).toBeVisible();
  await expect(modal.getByText('The link can be used once only.')).toBeVisible();
  const link = await modal.getByLabel('Reset link (expires in 1 hour)').inputValue();
  expect(link).toMatch(/\/reset-password\?token=/);
  await modal.getByRole('button', { name: 'Copy Link' }).click();
  await expect(toast(page, 'Reset link copied to clipboard!')).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).last().click();

  const history = page.getByTestId('reset-history');
  const entry = history.locator('li', { hasText: warrior.email }).first();
  await expect(entry).toHaveAttribute('data-status', 'pending');
  await expect(entry.getByText('Pending')).toBeVisible();

  // The rider opens the link in a browser of their own.
  const riderContext = await browser.newContext();
  const riderPage = await riderContext.newPage();
  const url = new URL(link);
  await riderPage.goto(`${url.pathname}${url.search}`);
  await expect(riderPage.getByTestId('reset-email')).toHaveText(warrior.email);
  await riderPage.getByLabel('New Password', { exact: true }).fill('Event1Reset');
  await riderPage.getByLabel('Confirm New Password', { exact: true }).fill('Event1Reset');
  await riderPage.getByRole('button', { name: 'Reset Password' }).click();
  await expect(
    riderPage.getByText('Your password has been successfully reset. You can now login with your new password.'),
  ).toBeVisible();
  await riderContext.close();
  const relogin = await request.post('/api/auth/login', { data: { email: warrior.email, password: 'Event1Reset' } });
  expect(relogin.ok()).toBeTruthy();

  await page.reload();
  await expect(page.getByTestId('reset-history').locator('li', { hasText: warrior.email }).first()).toHaveAttribute(
    'data-status',
    'used',
  );
  await expect(
    page.getByTestId('reset-history').locator('li', { hasText: warrior.email }).first().getByText('Used'),
  ).toBeVisible();
});

test('an admin publishes an announcement and a rider sees it, unread, in My Profile', async ({
  browser,
  page,
  request,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const warrior = await rider(request);
  const title = `Flag-off moved to 5:30 AM ${Date.now().toString(36)}`;

  await openTab(page, admin, 'announcements', 'Announcements Management');
  await page.getByRole('button', { name: 'Create Announcement' }).click();
  const modal = page.getByRole('dialog', { name: 'Create New Announcement' });
  await modal.getByLabel('Title').fill(title);
  await expect(modal.getByText(`${title.length}/255`)).toBeVisible();
  await modal.getByLabel('Content').fill('Assemble at the Davao start line by 5 AM.\nBring your rider ID.');
  await expect(modal.getByLabel('Make this announcement active (visible to participants)')).toBeChecked();
  await modal.getByRole('button', { name: 'Create Announcement' }).click();
  await expect(modal).toBeHidden();
  const card = page.getByTestId('announcement').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();

  const active = await request.get('/api/announcements', { headers: { authorization: `Bearer ${warrior.token}` } });
  const unread = ((await active.json()).data.announcements as unknown[]).length;
  expect(unread).toBeGreaterThanOrEqual(1);

  const riderContext = await browser.newContext();
  const riderPage = await riderContext.newPage();
  await signInWithToken(riderPage, warrior.token, warrior.user);
  await riderPage.goto('/me');
  // The rider's announcements load on the tab's first opening, then the badge counts the unread ones.
  const tab = riderPage.getByRole('tab', { name: /Announcements/ });
  await tab.click();
  await expect(tab).toContainText(`${unread}`);
  await expect(tab.getByText('unread')).toBeAttached();
  const item = riderPage.getByRole('button', { name: new RegExp(title) });
  await expect(item).toBeVisible();
  await expect(item.getByText('New')).toBeVisible();
  await item.click();
  await expect(riderPage.getByText('Bring your rider ID.')).toBeVisible();
  if (unread === 1) await expect(tab.getByText('unread')).toHaveCount(0);
  else await expect(tab).toContainText(`${unread - 1}`);
  await riderContext.close();
});
