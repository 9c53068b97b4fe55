// Editions (DESIGN.md §9), the organiser's rollover: in the console an organiser makes the
// next edition (with its own price) and, after typing its name, makes it current. The last
// edition's riders leave the masterlist; browsing the past edition brings them back, read
// only, exports included, under a banner across the console; back on the current edition
// Analytics compares this edition's registrations with the last one's. On a server of its
// own: the rollover changes every entry on it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { Edition } from '@rally/shared/contracts/editions';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { session, verifiedRider } from './support/event-day';
import { expect, toast } from './support/fixtures';
import { testOnOwnServer } from './support/own-server';

const test = testOnOwnServer(500);

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

test('an organiser makes the next edition current and browses the last one read-only', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const number = `#${rider.user.riderNumber}`;
  const riderName = `${rider.user.firstName} ${rider.user.lastName}`;
  const editions = async () => (await (await request.get('/api/editions')).json()).data as Edition[];
  const last = (await editions()).find((e) => e.current) as Edition;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=masterlist');
  await expect(page.getByRole('row', { name: new RegExp(riderName) })).toContainText(number);

  // The next edition, with this year's Lakan price.
  await page.goto('/admin?tab=editions');
  const name = `Warriors ${randomBytes(3).toString('hex')}`;
  await page.getByRole('button', { name: 'Next Edition' }).click();
  const form = page.getByTestId('new-edition');
  await form.getByLabel('Edition name').fill(name);
  await form.getByLabel('Starts on').fill('2031-03-14');
  await form.getByLabel('Ends on').fill('2031-03-16');
  await form.getByLabel('Lakan', { exact: true }).fill('3100');
  await form.getByRole('button', { name: 'Create Edition' }).click();
  await expect(toast(page, `${name} created`)).toBeVisible();
  const card = page.getByTestId('edition').filter({ has: page.getByRole('heading', { name, level: 3 }) });
  await expect(card.getByTestId('edition-prices')).toContainText('₱3,100 Lakan');

  // Made current only once its name is typed.
  await card.getByRole('button', { name: `Make Current ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Make Current' });
  await expect(dialog).toContainText(`Every rider's entry in ${last.name}`);
  const confirm = dialog.getByTestId('confirm-make-current');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
  await shot(page, 'make-current-1280');
  await confirm.click();
  await expect(toast(page, `${name} is now the current edition`)).toBeVisible();
  await expect(card.getByText('Current', { exact: true })).toBeVisible();
  const lastCard = page
    .getByTestId('edition')
    .filter({ has: page.getByRole('heading', { name: last.name, level: 3 }) });
  await expect(lastCard.getByText('Past', { exact: true })).toBeVisible();
  await expect(lastCard.getByRole('button', { name: /Make Current/ })).toHaveCount(0);

  // The current edition has no entry of last year's: the rider is listed without a number.
  await page.goto('/admin?tab=masterlist');
  await expect(page.getByRole('heading', { name: 'Participant Masterlist' })).toBeVisible();
  await expect(page.getByText(number, { exact: true })).toHaveCount(0);

  // Browsing the past edition: its masterlist as it was, under a banner, and its exports.
  await page.goto('/admin?tab=editions');
  await lastCard.getByRole('button', { name: `Browse ${last.name}` }).click();
  const banner = page.getByTestId('past-edition-banner');
  await expect(banner).toHaveText(new RegExp(`Viewing ${last.name} \\(${last.year}\\), a past edition: read-only`));
  await expect(page).toHaveURL(new RegExp(`edition=${last.id}`));
  await expect(page.getByRole('row', { name: new RegExp(riderName) })).toContainText(number);
  await expectNoViolations(page);
  await shot(page, 'past-edition-1280');
  await page.locator('[data-tab="reports"]:visible').click();
  await expect(banner).toBeVisible();
  const download = page.waitForEvent('download');
  await page
    .locator('[data-export="masterlist"]')
    .getByRole('button', { name: 'Download Participant Masterlist as CSV' })
    .click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n').some((line) => line.startsWith(`${rider.user.riderNumber},`))).toBe(true);

  // On a phone the banner fits.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(banner).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'past-edition-360');

  // Back to the current edition: no banner, and Analytics compares the two.
  await banner.getByRole('button', { name: `Back to ${name}` }).click();
  await expect(banner).toHaveCount(0);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin?tab=analytics');
  const comparison = page.getByTestId('edition-comparison');
  await expect(comparison).toContainText(`${name} and ${last.name}`);
  await shot(page, 'analytics-editions-1280');
});
