// Text nobody breaks for us: a pasted link or a 200-letter name in an announcement once made
// the Announcements page 2,924 px wide on a 360 px phone. Every card and list wraps such a
// word (overflow-wrap: anywhere, set once on the body), on the console and on the rider's
// screens; a screenshot of each is kept to look at.
import type { Page, TestInfo } from '@playwright/test';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll } from './support/checks';
import { createUser } from './support/cli';
import { auth, session } from './support/event-day';
import { expect, test } from './support/fixtures';

const PHONE = { width: 360, height: 740 };
const WORD = `MAGANDANG${'A'.repeat(191)}`;
const LINK = `https://drive.example.com/${'x'.repeat(120)}/view?usp=sharing&resourcekey=${'k'.repeat(60)}`;

async function fits(page: Page, info: TestInfo, name: string) {
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath(`${name}-360.png`), fullPage: true });
}

test('an announcement of unbroken words wraps on the console and on the rider’s phone', async ({
  page,
  request,
}, info) => {
  const admin = await session(request, createUser('admin'));
  const title = `${WORD} ${info.testId}`;
  const published = await request.post('/api/admin/announcements', {
    headers: auth(admin),
    data: { title, content: `Read this: ${LINK} ${WORD}`, is_active: true },
  });
  expect(published.ok(), await published.text()).toBeTruthy();

  await page.setViewportSize(PHONE);
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=announcements');
  await expect(page.getByText(title).first()).toBeVisible();
  await fits(page, info, 'console-announcements');
  await page.goto('/admin?tab=logs');
  await expect(page.getByRole('heading', { level: 2, name: 'System Logs' })).toBeVisible();
  await fits(page, info, 'console-logs');

  const rider = await session(request, createUser('participant'));
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await page.getByRole('tab', { name: /^Announcements/ }).click();
  await expect(page.getByText(title).first()).toBeVisible();
  await fits(page, info, 'me-announcements');
});
