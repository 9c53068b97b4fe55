// The rider's side of event day: the pass on My Profile with the passages a
// marshal's scans made, the public profile's last station, and the pass opening offline
// through the service worker.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { shownRiderNumber, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { uniqueEmail } from './support/env';
import { addStation, type Session, scan, session, verifiedRider } from './support/event-day';
import { expect, test } from './support/fixtures';

async function openPass(page: Page, rider: Session) {
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await page.getByRole('tab', { name: 'Rider Code' }).click();
  await expect(page.getByTestId('rider-pass')).toBeVisible();
}

test('the rider sees the pass and the passages; the public profile shows the last station', async ({
  page,
  request,
}) => {
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await verifiedRider(request, admin);
  const riderCode = rider.user.riderCode ?? '';
  const tag = randomUUID().slice(0, 6);
  const marilog = await addStation(request, admin, { name: `Marilog ${tag}`, kind: 'checkpoint', day: 1 });
  const calinan = await addStation(request, admin, { name: `Calinan ${tag}`, kind: 'checkpoint', day: 1 });

  await openPass(page, rider);
  await expect(page.getByTestId('rider-code')).toHaveText(riderCode);
  await expect(page.getByTestId('rider-qr')).toBeVisible();
  await expect(page.getByTestId('pass-name')).toHaveText(rider.user.kitName || rider.user.firstName.toUpperCase());
  await expect(page.getByTestId('pass-number')).toContainText(shownRiderNumber(rider.user.riderNumber));
  await expect(page.getByTestId('pass-category')).toContainText('LAKAN');
  await expect(page.getByText('No stations passed yet.')).toBeVisible();

  expect((await scan(request, marshal, marilog.id, { riderCode: riderCode }, 'e2e-rider-pass')).status).toBe(
    'accepted',
  );
  expect((await scan(request, marshal, calinan.id, { riderCode: riderCode }, 'e2e-rider-pass')).status).toBe(
    'accepted',
  );
  await page.reload();
  await page.getByRole('tab', { name: 'Rider Code' }).click();
  await expect(page.getByTestId('passage')).toHaveCount(2);
  await expect(page.getByTestId('passage').nth(0)).toContainText(`Marilog ${tag}`);
  await expect(page.getByTestId('passage').nth(1)).toContainText(`Calinan ${tag}`);
  await expect(page.getByTestId('passage').nth(1)).toContainText('Checkpoint');

  await page.goto(`/user/${rider.user.id}`);
  await expect(page.getByTestId('last-station')).toContainText(`Last seen at Calinan ${tag}`);

  // A rider not yet scanned shows no such line.
  const fresh = await session(request, createUser('participant', uniqueEmail('unscanned')));
  await page.goto(`/user/${fresh.user.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('last-station')).toHaveCount(0);
});

for (const viewport of [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the pass on a ${viewport.name}: fits the screen, no WCAG 2.1 AA violations`, async ({ page, request }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const admin = await session(request, createUser('admin'));
    const marshal = await session(request, createUser('marshall'));
    const rider = await verifiedRider(request, admin);
    const station = await addStation(request, admin, {
      name: `Davao City ${randomUUID().slice(0, 6)}`,
      kind: 'checkpoint',
      day: 1,
    });
    expect(
      (await scan(request, marshal, station.id, { riderCode: rider.user.riderCode ?? '' }, 'e2e-rider-pass')).status,
    ).toBe('accepted');

    await openPass(page, rider);
    await expect(page.getByTestId('passage')).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
    if (process.env.E2E_SHOTS) {
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/pass-${viewport.width}.png`, fullPage: true });
      await page.goto(`/user/${rider.user.id}`);
      await expect(page.getByTestId('last-station')).toBeVisible();
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/public-${viewport.width}.png`, fullPage: true });
    }
  });
}

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the pass opens offline after one visit: number, name and QR', async ({ page, context, request }) => {
    const admin = await session(request, createUser('admin'));
    const rider = await verifiedRider(request, admin);

    await openPass(page, rider);
    await expect(page.getByTestId('rider-code')).toHaveText(rider.user.riderCode ?? '');
    // The service worker has installed and controls the page, so the app shell is cached.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await context.setOffline(true);
    await page.reload();
    // Offline, My Profile opens on the pass by itself.
    await expect(page.getByTestId('rider-pass')).toBeVisible();
    await expect(page.getByTestId('pass-offline')).toContainText('You are offline.');
    await expect(page.getByTestId('rider-code')).toHaveText(rider.user.riderCode ?? '');
    await expect(page.getByTestId('pass-number')).toContainText(shownRiderNumber(rider.user.riderNumber));
    await expect(page.getByTestId('pass-name')).toBeVisible();
    await expect(page.getByTestId('rider-qr')).toBeVisible();
    // The session was kept: still signed in, not sent to the login page.
    await expect(page).toHaveURL(/\/me$/);

    await context.setOffline(false);
  });
  test('a session ended elsewhere leaves no pass on the phone for the next person', async ({ page, request }) => {
    const admin = await session(request, createUser('admin'));
    const rider = await verifiedRider(request, admin);
    await openPass(page, rider);
    await expect(page.getByTestId('rider-code')).toHaveText(rider.user.riderCode ?? '');
    const keptPasses = () =>
      page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('rally.pass.')));
    await expect.poll(keptPasses).not.toEqual([]);

    // Signed out on the server (another device, staff): the next start is refused with 401.
    const out = await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${rider.token}` } });
    expect(out.ok()).toBeTruthy();
    await page.reload();
    await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
    expect(await keptPasses()).toEqual([]);
  });
});
