// The Command Center end to end: a marshall verifies a rider's payment from the
// Verification Center, an officer sees only their tabs, and an admin edits and
// deactivates a rider who then cannot log in.
import type { APIRequestContext, Page } from '@playwright/test';
import { logIn, registerRider, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';

async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).token;
}

function consoleNav(page: Page) {
  return page.getByRole('navigation', { name: 'Console sections' });
}

test('a marshall approves a pending rider after opening the receipt, and the rider lands on /me', async ({
  browser,
  page,
  request,
}) => {
  const rider = await registerRider(request);
  const code = rider.user.verificationCode as string;

  // The rider waits on /verify in their own browser.
  const riderContext = await browser.newContext();
  const riderPage = await riderContext.newPage();
  await signInWithToken(riderPage, rider.token, rider.user);
  await riderPage.goto('/verify');
  await expect(riderPage.getByRole('heading', { name: 'VERIFICATION PENDING' })).toBeVisible();

  const marshall = createUser('marshall');
  await logIn(page, marshall.email, marshall.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await expect(page).toHaveURL(/\/admin/);
  await expect(page.getByRole('heading', { name: /Command\s*Center/i })).toBeVisible();
  await consoleNav(page).getByRole('button', { name: 'Verification Center' }).click();
  await expect(page.getByRole('heading', { name: 'Verification Center' })).toBeVisible();

  await page.getByLabel('Search by code or name').fill(code);
  const row = page.locator(`tr[data-verification-code="${code}"]`);
  await expect(row).toBeVisible();
  await expect(page.locator('tbody tr')).toHaveCount(1);

  await row.getByRole('button', { name: 'View Receipt' }).click();
  const receipt = page.getByRole('dialog', { name: 'Payment Receipt - Pending Rider' });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByText('GCash')).toBeVisible();
  await expect(receipt.getByText('₱2,700')).toBeVisible();
  const image = receipt.getByRole('img', { name: 'Payment receipt of Pending Rider' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
  await receipt.getByRole('button', { name: 'Close' }).last().click();
  await expect(receipt).toBeHidden();

  await row.getByLabel(/Notes for/).fill('GCash reference checked');
  await row.getByRole('button', { name: /^Approve / }).click();
  await expect(toast(page, 'User approved successfully!')).toBeVisible();
  await expect(page.getByText('No pending verifications found.')).toBeVisible();
  const history = page.getByTestId('verification-history');
  await expect(history.locator('li').first()).toContainText(code);
  await expect(history.locator('li').first()).toContainText('GCash reference checked');

  // The rider refreshes instead of waiting for the 30-second poll.
  await riderPage.getByRole('button', { name: 'Refresh' }).click();
  await expect(riderPage.getByRole('heading', { name: 'PAYMENT VERIFIED!' })).toBeVisible();
  await riderPage.waitForURL('**/me');
  await riderContext.close();
});

test('an officer sees only the tabs their permissions allow', async ({ page }) => {
  const officer = createUser('officer');
  await logIn(page, officer.email, officer.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin');
  const nav = consoleNav(page);
  await expect(nav.getByRole('button')).toHaveText(['Dashboard', 'Event Day', 'Analytics', 'Settings']);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('stat-total-warriors')).not.toHaveText('—');

  // A hand-typed tab the officer may not open falls back to the dashboard.
  await page.goto('/admin?tab=users');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'User Management' })).toHaveCount(0);

  // Settings holds the staff member's own password (issue 16 replaced the placeholder).
  await nav.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Current Password', { exact: true })).toBeVisible();
  await nav.getByRole('button', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
});

test('an admin edits a rider and deactivates them, and the rider can no longer log in', async ({
  browser,
  page,
  request,
}) => {
  const admin = createUser('admin');
  const rider = await registerRider(request);
  const adminToken = await apiToken(request, admin.email, admin.password);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { verification_code: rider.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();

  // The rider is signed in elsewhere while staff act.
  const riderContext = await browser.newContext();
  const riderPage = await riderContext.newPage();
  await signInWithToken(riderPage, rider.token, rider.user);
  await riderPage.goto('/me');
  await expect(riderPage).toHaveURL(/\/me$/);

  await logIn(page, admin.email, admin.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin?tab=users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await page.getByLabel('Search by kit name, full name or email').fill(rider.email);
  const row = page.locator(`tr[data-user-id="${rider.user.id}"]`);
  await expect(row).toBeVisible();
  await expect(page.getByText('Showing 1 of 1 warriors')).toBeVisible();

  await row.getByRole('button', { name: /^Edit / }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Warrior' });
  await expect(
    edit.getByText('Changes to kit sizes will affect inventory and should be made carefully.'),
  ).toBeVisible();
  await expect(edit.getByText('Changing roles affects user permissions and access levels')).toBeVisible();
  await edit.getByLabel('Kit Name').fill('');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('Kit Name is required')).toBeVisible();
  await edit.getByLabel('Kit Name').fill('IRON DATU');
  await edit.getByLabel('Full Name').fill('Lapu Dela Cruz');
  await edit.getByLabel('Category').selectOption('');
  await edit.getByLabel('Rally Vest').selectOption('CUSTOM');
  await edit.getByLabel('Custom Rally Vest size').fill('Chest 52 in');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page, 'User updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('IRON DATU');
  await expect(row).toContainText('Lapu Dela Cruz');
  await expect(row).toContainText('NOT SET');

  await row.getByRole('button', { name: /^View details of/ }).click();
  const details = page.getByRole('dialog', { name: 'Warrior Details' });
  await expect(details.getByText('Custom: Chest 52 in')).toBeVisible();
  await expect(details.getByText('Sizes Submitted')).toBeVisible();
  await details.getByRole('button', { name: 'Close' }).last().click();

  await row.getByRole('button', { name: /^Status: Active/ }).click();
  await expect(toast(page, 'User deactivated')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Status: Inactive/ })).toBeVisible();

  // The rider's open session ends at once, and a new login is refused.
  await riderPage.reload();
  await riderPage.waitForURL('**/login');
  await riderPage.getByLabel('Email').fill(rider.email);
  await riderPage.getByLabel('Password', { exact: true }).fill(rider.password);
  await riderPage.getByRole('button', { name: 'ENTER THE REALM' }).click();
  await expect(toast(riderPage, 'Your account has been deactivated. Please contact the organizers.')).toBeVisible();
  await expect(riderPage).toHaveURL(/\/login$/);
  await riderContext.close();
});

test('the console screens have no WCAG 2.1 AA violations, on a desktop and on a phone', async ({ page, request }) => {
  // Seven axe passes over full tables: give the shared CI machine room.
  test.slow();
  const admin = createUser('admin');
  // One rider waits for verification (pending list, receipt) and one is verified (user list).
  await registerRider(request);
  const verified = await registerRider(request);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: { Authorization: `Bearer ${await apiToken(request, admin.email, admin.password)}` },
    data: { verification_code: verified.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();
  await logIn(page, admin.email, admin.password);
  await expect(page).not.toHaveURL(/\/login$/);
  for (const [tab, heading] of [
    ['dashboard', 'Dashboard'],
    ['users', 'User Management'],
    ['masterlist', 'Participant Masterlist'],
    ['verifications', 'Verification Center'],
  ] as const) {
    await page.goto(`/admin?tab=${tab}`);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    await expectNoViolations(page);
  }
  await page.locator('tbody tr').first().getByRole('button', { name: 'View Receipt' }).click();
  await expect(page.getByRole('img', { name: /Payment receipt of/ })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.goto('/admin?tab=masterlist');
  await page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^View / })
    .click();
  await expect(page.getByRole('dialog', { name: 'Warrior Details' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.goto('/admin?tab=users');
  await page
    .locator('tbody tr')
    .first()
    .getByRole('button', { name: /^Edit / })
    .click();
  await expect(page.getByRole('dialog', { name: 'Edit Warrior' })).toBeVisible();
  await expectNoViolations(page);
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(consoleNav(page).getByRole('button', { name: 'User Management' })).toBeVisible();
  await expectNoViolations(page);
  // The page itself never scrolls sideways on a phone; wide tables scroll in their own box.
  await expectNoSidewaysScroll(page);
});

/** The CSS label a stacked cell shows before its content on a phone. */
function cellLabel(cell: import('@playwright/test').Locator) {
  return cell.evaluate((td) => getComputedStyle(td, '::before').content);
}

test('on a phone, the pending list and the kit tracker stack into cards a marshal works without scrolling sideways', async ({
  page,
  request,
}) => {
  const pending = await registerRider(request);
  const code = pending.user.verificationCode as string;
  const name = `${pending.user.firstName} ${pending.user.lastName}`;
  const admin = createUser('admin');
  await page.setViewportSize({ width: 360, height: 740 });
  await logIn(page, admin.email, admin.password);
  await expect(page).not.toHaveURL(/\/login$/);

  await page.goto('/admin?tab=verifications');
  await page.getByLabel('Search by code or name').fill(code);
  const card = page.locator(`tr[data-verification-code="${code}"]`);
  await expect(card).toBeVisible();
  await expect(page.locator('thead')).toBeHidden();
  for (const label of ['Code', 'Payment', 'Receipt', 'Submitted'])
    expect(await cellLabel(card.locator(`td[data-label="${label}"]`))).toBe(`"${label}"`);
  const approve = card.getByRole('button', { name: /^Approve / });
  const box = await approve.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(360);
  const table = page.locator('table');
  expect(await table.evaluate((t) => (t.parentElement as HTMLElement).scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);
  await approve.click();
  await expect(toast(page, 'User approved successfully!')).toBeVisible();

  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto('/admin?tab=kit-tracker');
  await page.getByLabel('Search by name, kit name, email or rider number').fill(pending.email);
  const kit = page.locator(`tr[data-user-id="${pending.user.id}"]`);
  await expect(kit).toBeVisible();
  expect(await cellLabel(kit.locator('td[data-label="Rider #"]'))).toBe('"Rider #"');
  const shirt = kit.getByRole('checkbox', { name: `T-shirt given to ${name}` });
  const shirtBox = await shirt.boundingBox();
  expect(shirtBox && shirtBox.x + shirtBox.width).toBeLessThanOrEqual(360);
  await shirt.click();
  await expect(shirt).toBeChecked();
  await expect(kit.getByTestId('kit-dot')).toHaveAttribute('title', 'Kit 1/3 complete');
  await expectNoViolations(page);
  await expectNoSidewaysScroll(page);
});
