// Who looked (DESIGN.md §12, issue 43): an admin opens a rider's details in User Management;
// the rider signs in and reads, in My Profile's privacy section, the admin's name, what was read
// and where. The admin's Privacy tab shows the line by rider, and the breach kit lists the
// rider for that admin and that window, as CSV too. An export with sensitive columns asks why
// first, and the reason shows in the log.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { bearer, registerRider, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { auth, type Session, session } from './support/event-day';
import { expect, test, toast } from './support/fixtures';

/** With E2E_SHOTS set: the part of the screen this spec is about (the page's own viewport for a dialog). */
const shot = async (target: Page | Locator, name: string) => {
  if (!process.env.E2E_SHOTS) return;
  const path = `${process.env.E2E_SHOTS}/wholooked-${name}.png`;
  await target.screenshot({ path });
};

/** A datetime-local value in Manila time, `minutes` from `iso`. */
const manilaInput = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000 + 8 * 3_600_000).toISOString().slice(0, 16);

/** Accepts the current privacy notice, when one is published, so no consent screen comes first. */
async function acceptNotice(request: import('@playwright/test').APIRequestContext, who: Session) {
  const notice = await request.get('/api/privacy/notice');
  const version = notice.ok() ? (await notice.json())?.data?.version : undefined;
  if (typeof version === 'number')
    await request.put('/api/my/consents/notice', { headers: auth(who), data: { version } });
}

test('a rider sees who looked; the admin finds the read by rider and in the breach kit', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await session(request, createUser('admin'));
  const adminName = `${admin.user.firstName} ${admin.user.lastName}`;
  const tag = Date.now().toString(36).slice(-5);
  const registered = await registerRider(request, { firstName: 'Amihan', lastName: `Looked${tag}` });
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: auth(admin),
    data: { verification_code: registered.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok(), await approved.text()).toBeTruthy();
  const rider = await session(request, { email: registered.email, password: registered.password, role: 'participant' });
  const riderName = `Amihan Looked${tag}`;
  const details = await request.patch('/api/my/details', {
    headers: auth(rider),
    data: { emergencyContactName: 'Inay Amihan', emergencyContactNumber: '09181234567', allergies: 'Bee stings' },
  });
  expect(details.ok(), await details.text()).toBeTruthy();
  for (const who of [admin, rider]) await acceptNotice(request, who);

  // The admin opens the rider's details in User Management.
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=users');
  await page.getByLabel('Search by kit name, full name or email').fill(registered.email);
  const row = page.locator('tbody tr', { hasText: registered.email });
  await row.getByRole('button', { name: /^View details of / }).click();
  await expect(page.getByRole('dialog', { name: 'Warrior Details' })).toContainText(registered.email);
  await page.keyboard.press('Escape');

  // The line, as the rider's API reads it: the window and the kinds the e2e checks below.
  let line: { at: string; fields: string[]; staffName: string } | undefined;
  await expect
    .poll(async () => {
      const mine = await request.get('/api/my/data-access', { headers: bearer(rider.token) });
      line = (
        (await mine.json()).data as Array<{ at: string; fields: string[]; source: string; staffName: string }>
      ).find((l) => l.source === 'GET /api/admin/users/:id');
      return line?.staffName;
    })
    .toBe(adminName);
  const read = line as NonNullable<typeof line>;
  expect(read.fields).toContain('emergency_contact');

  // The rider signs in on a phone and reads who looked.
  const phone = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true });
  const riderPage = await phone.newPage();
  await signInWithToken(riderPage, rider.token, rider.user);
  await riderPage.goto('/me');
  // The privacy section is below My Details, the tab My Profile opens on.
  const card = riderPage.getByTestId('who-looked');
  await expect(card.getByRole('heading', { name: 'Who looked at your data' })).toBeVisible();
  const seen = card.getByTestId('who-looked-line').filter({ hasText: 'User details in the Command Center' });
  await expect(seen.first().getByTestId('who-looked-staff')).toHaveText(adminName);
  await expect(seen.first()).toContainText('Emergency contact');
  await expectNoSidewaysScroll(riderPage);
  await card.scrollIntoViewIfNeeded();
  await shot(card, 'my-profile-360');
  await riderPage.setViewportSize({ width: 1280, height: 900 });
  await shot(card, 'my-profile-1280');
  await phone.close();

  // The admin's Privacy tab: the line by rider.
  await page.goto('/admin?tab=privacy');
  const panel = page.getByTestId('data-access-panel');
  await expect(panel.getByRole('button', { name: 'By rider' })).toHaveAttribute('aria-pressed', 'true');
  await panel.getByLabel('Rider', { exact: true }).fill(registered.email);
  await panel.getByTestId('data-access-person').filter({ hasText: registered.email }).click();
  await expect(panel.getByTestId('data-access-picked')).toContainText(riderName);
  const byRider = panel.getByTestId('data-access-line').filter({ hasText: 'User details in the Command Center' });
  await expect(byRider.first()).toContainText(adminName);
  await expect(byRider.first()).toContainText(riderName);
  await page.setViewportSize({ width: 1280, height: 2400 });
  await shot(panel, 'console-1280');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The breach kit: this admin, this window.
  const kit = page.getByTestId('breach-kit');
  await kit.getByLabel('From (Manila time)').fill(manilaInput(read.at, -2));
  await kit.getByLabel('To (Manila time)').fill(manilaInput(read.at, 2));
  await kit.getByRole('searchbox', { name: 'Staff account' }).fill(admin.user.email);
  await kit.getByTestId('data-access-person').filter({ hasText: admin.user.email }).click();
  await kit.getByRole('button', { name: 'Find affected riders' }).click();
  const affected = kit.getByTestId('breach-rider').filter({ hasText: riderName });
  await expect(affected).toContainText(registered.email);
  await expect(affected).toContainText('Emergency contact');
  await page.setViewportSize({ width: 1280, height: 2400 });
  await shot(kit, 'breach-1280');
  await page.setViewportSize({ width: 1280, height: 900 });
  const download = page.waitForEvent('download');
  await kit.getByRole('button', { name: 'Download CSV for the 72-hour notice' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv).toContain(registered.email);
  expect(csv).toContain(rider.user.id);

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(affected).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 360, height: 3600 });
  await shot(panel, 'console-360');

  // An export with sensitive columns asks why; the reason shows in the log.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin?tab=reports');
  const masterlist = page.locator('[data-export="masterlist"]');
  await masterlist.getByRole('button', { name: 'Download Participant Masterlist as CSV' }).click();
  const why = page.getByRole('dialog', { name: 'Why this export?' });
  await expect(why).toContainText('birthdate and emergency contact');
  await why.getByRole('button', { name: 'Download CSV' }).click();
  await expect(why).toContainText('Say why you export riders’ sensitive data (at least 5 characters)');
  await shot(page, 'reason-1280');
  await expectNoViolations(page);
  const reason = `Insurer list ${tag}`;
  await why.getByLabel('Reason').fill(reason);
  const exported = page.waitForEvent('download');
  await why.getByRole('button', { name: 'Download CSV' }).click();
  expect((await exported).suggestedFilename()).toMatch(/^masterlist-/);
  await expect(toast(page, /Downloaded masterlist-/)).toBeVisible();
  await expect(why).toBeHidden();
  // A file without sensitive columns downloads at once.
  const sizes = page.waitForEvent('download');
  await page.locator('[data-export="sizes"]').getByRole('button', { name: 'Download Kit Size Totals as CSV' }).click();
  expect((await sizes).suggestedFilename()).toMatch(/^sizes-/);
  await expect(why).toBeHidden();

  await page.setViewportSize({ width: 360, height: 740 });
  await masterlist.getByRole('button', { name: 'Download Participant Masterlist as Excel (XLSX)' }).click();
  await expect(why).toBeVisible();
  await shot(page, 'reason-360');
  await why.getByRole('button', { name: 'Cancel' }).click();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin?tab=privacy');
  await panel.getByRole('button', { name: 'By staff member' }).click();
  await panel.getByLabel('Staff member', { exact: true }).fill(admin.user.email);
  await panel.getByTestId('data-access-person').filter({ hasText: admin.user.email }).click();
  const withReason = panel.getByTestId('data-access-line').filter({ hasText: riderName }).filter({ hasText: reason });
  await expect(withReason.first()).toContainText('Masterlist export');
});
