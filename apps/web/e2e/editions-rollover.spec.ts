// Editions (DESIGN.md §9), the organiser's rollover: in the console an organiser makes the
// next edition (with its own price) and, after typing its name, makes it current. The last
// edition's riders leave the masterlist; browsing the past edition (a link of its own) brings
// them back, read only, exports included, under a banner across the console, with every staff
// call asking for it; back on the current edition Analytics compares this edition's
// registrations with the last one's. On a server of its own: the rollover changes every
// entry on it.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { Edition } from '@rally/shared/contracts/editions';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { auth, session, verifiedRider } from './support/event-day';
import { expect, toast } from './support/fixtures';
import { testOnOwnServer } from './support/own-server';

const test = testOnOwnServer(500);

const WIDE = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 800 };

const shot = async (page: Page | Locator, name: string) => {
  const path = `${process.env.E2E_SHOTS}/${name}.png`;
  if (!process.env.E2E_SHOTS) return;
  if ('goto' in page) await page.screenshot({ path, fullPage: true });
  else await page.screenshot({ path });
};

/** The console's tab `id`, chosen from the sidebar (wide) or the menu (phone). */
const openTab = async (page: Page, id: string) => {
  if ((await page.locator(`[data-tab="${id}"]:visible`).count()) === 0) {
    await page.getByRole('button', { name: 'Menu' }).click();
  }
  await page.locator(`[data-tab="${id}"]:visible`).click();
};

test('an organiser makes the next edition current and browses the last one read-only', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const number = `#${rider.user.riderNumber}`;
  const riderName = `${rider.user.firstName} ${rider.user.lastName}`;
  const editions = async () => (await (await request.get('/api/editions')).json()).data as Edition[];
  const last = (await editions()).find((e) => e.current) as Edition;

  await page.setViewportSize(WIDE);
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
  const lastCard = page
    .getByTestId('edition')
    .filter({ has: page.getByRole('heading', { name: last.name, level: 3 }) });
  await expect(lastCard.getByText('Current', { exact: true })).toBeVisible();
  await expect(lastCard.getByRole('button', { name: /Make Current/ })).toHaveCount(0);

  // Made current only once its name is typed; the dialog says what becomes history.
  await card.getByRole('button', { name: `Make Current ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Make Current' });
  await expect(dialog).toContainText(
    `Every rider's entry in ${last.name}: numbers, verifications, kits, stickers, scans, incidents and results, becomes its read-only history. Riders join ${name} afresh.`,
  );
  await expect(dialog).toContainText('This cannot be undone.');
  const confirm = dialog.getByTestId('confirm-make-current');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${name} to confirm`).fill(name.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${name} to confirm`).fill(name);
  await expect(confirm).toBeEnabled();
  await shot(page, 'make-current-1280');
  await page.setViewportSize(PHONE);
  await expect(confirm).toBeInViewport();
  await shot(page, 'make-current-360');
  await page.setViewportSize(WIDE);
  await confirm.click();
  await expect(toast(page, `${name} is now the current edition`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(card.getByText('Current', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: /Make Current/ })).toHaveCount(0);
  await expect(lastCard.getByText('Past', { exact: true })).toBeVisible();
  await expect(lastCard.getByRole('button', { name: /Make Current/ })).toHaveCount(0);
  await expect(lastCard.getByRole('button', { name: `Browse ${last.name}` })).toBeVisible();
  await shot(page, 'editions-after-rollover-1280');
  expect((await editions()).find((e) => e.id === last.id)?.closedAt).not.toBeNull();

  // The current edition has no entry of last year's: the rider's number is gone.
  await openTab(page, 'masterlist');
  await expect(page.getByRole('heading', { name: 'Participant Masterlist' })).toBeVisible();
  await expect(page.getByText('Showing 0 of 0 participants').or(page.getByText(/No participants found/))).toBeVisible();
  await expect(page.getByText(number, { exact: true })).toHaveCount(0);

  // Browsing the past edition: its masterlist as it was, under a banner. Every staff call
  // from now on asks for it (the live stream and the SOS alarm's, today's, aside).
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/admin/')) asked.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  await openTab(page, 'editions');
  await lastCard.getByRole('button', { name: `Browse ${last.name}` }).click();
  const banner = page.getByTestId('past-edition-banner');
  await expect(banner).toHaveText(new RegExp(`Viewing ${last.name} \\(${last.year}\\), a past edition: read-only`));
  await expect(page).toHaveURL(new RegExp(`edition=${last.id}`));
  await expect(page.getByRole('row', { name: new RegExp(riderName) })).toContainText(number);
  await expectNoViolations(page);
  await shot(page, 'past-edition-1280');

  // The choice survives a tab switch; the kit tracker shows last year's kits, changing none.
  await openTab(page, 'kit-tracker');
  await expect(banner).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`tab=kit-tracker.*edition=${last.id}|edition=${last.id}.*tab=kit-tracker`));
  const kitRow = page.getByTestId('kit-row').filter({ hasText: riderName });
  await expect(kitRow).toContainText(number);
  await expect(kitRow.getByRole('checkbox').first()).toBeDisabled();
  await expect(kitRow.getByTestId('hand-over-all')).toHaveCount(0);

  // A write naming the past edition is refused by the server.
  const refused = await request.post(`/api/admin/kit-tracking/${rider.user.id}/hand-over-all?edition=${last.id}`, {
    headers: auth(admin),
    data: {},
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).code).toBe('EDITION_READ_ONLY');

  // Its exports: the masterlist as it was.
  await openTab(page, 'reports');
  await expect(banner).toBeVisible();
  const download = page.waitForEvent('download');
  await page
    .locator('[data-export="masterlist"]')
    .getByRole('button', { name: 'Download Participant Masterlist as CSV' })
    .click();
  const why = page.getByRole('dialog', { name: 'Why this export?' });
  await why.getByLabel('Reason').fill('Last year’s list for the insurer');
  await why.getByRole('button', { name: 'Download CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n').some((line) => line.startsWith(`${rider.user.riderNumber},`))).toBe(true);

  // The link itself opens the console on the past edition, on a phone too.
  await page.setViewportSize(PHONE);
  await page.goto(`/admin?tab=masterlist&edition=${last.id}`);
  await expect(banner).toBeVisible();
  await expect(page.getByText(number, { exact: true }).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'past-edition-360');

  const live = (line: string) =>
    line.startsWith('GET /api/admin/event/stream') || line === 'GET /api/admin/incidents?status=open';
  const others = asked.filter((line) => !live(line) && !line.includes(`edition=${last.id}`));
  expect(asked.length).toBeGreaterThan(5);
  expect(others).toEqual([]);

  // Back to the current edition: no banner, no number, and Analytics compares the two.
  await banner.getByRole('button', { name: `Back to ${name}` }).click();
  await expect(banner).toHaveCount(0);
  await expect(page).not.toHaveURL(/edition=/);
  await expect(page.getByRole('heading', { name: 'Participant Masterlist' })).toBeVisible();
  await expect(page.getByText(number, { exact: true })).toHaveCount(0);
  await openTab(page, 'analytics');
  const comparison = page.getByTestId('edition-comparison');
  await expect(comparison.getByTestId('edition-comparison-summary')).toHaveText(
    `No entries in ${name} yet; ${last.name} had 1 rider.`,
  );
  await expectNoSidewaysScroll(page);
  await shot(page, 'analytics-editions-360');
  await shot(comparison, 'analytics-comparison-360');
  await page.setViewportSize(WIDE);
  await comparison.getByRole('button', { name: 'Show as table' }).click();
  await expect(comparison.getByRole('row', { name: /Day 1/ })).toContainText('1');
  await shot(page, 'analytics-editions-1280');
});
