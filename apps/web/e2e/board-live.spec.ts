// The control board and the public tracker end to end: two staff boards
// open in two browser contexts see scans synced through the API appear without a reload
// (Server-Sent Events), a rider turns Overdue when the server's clock passes the due time
// (moved with the test-clock hook, no sleeping), a DNF decision reaches both boards; /live
// keeps the route classified before the flag-off and shows stations after it.
// Stations live on day 30 so the board opens on this test's day (the latest with a passage).

import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { apiLogin, bearer, type Session, signInWithToken } from './support/api';
import { cli, createUser } from './support/cli';
import { expect, test } from './support/fixtures';
import { type VerifiedRider, verifiedRiders } from './support/scanner';

const DAY = 30;

function advanceServerClock(minutes: number) {
  cli(['test-clock', '--advance-minutes', String(minutes)]);
}

async function station(request: APIRequestContext, admin: Session, name: string, kind: string, order: number) {
  const res = await request.post('/api/admin/stations', {
    headers: bearer(admin.token),
    data: { name, kind, day: DAY, order },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { id: string; name: string };
}

async function sync(request: APIRequestContext, marshal: Session, stationId: string, rider: VerifiedRider, at: Date) {
  const res = await request.post('/api/admin/scans', {
    headers: bearer(marshal.token),
    data: {
      scans: [
        {
          id: randomUUID(),
          stationId,
          riderCode: rider.riderCode,
          scannedAt: at.toISOString(),
          deviceId: 'e2e-board-phone',
          source: 'camera',
        },
      ],
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  expect((await res.json()).data.results[0].status).toBe('accepted');
}

async function openBoard(browser: Browser, who: Session): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  await signInWithToken(page, who.token, who.user);
  await page.goto('/admin?tab=event-day');
  await expect(page.getByTestId('control-board')).toBeVisible();
  await expect(page.getByTestId('control-board').getByTestId('stream-status')).toHaveAttribute('data-status', 'live');
  return page;
}

const stationRow = (page: Page, name: string) => page.locator(`[data-testid="board-station"][data-station="${name}"]`);

test('the board updates live on two screens, shows overdue riders and DNF decisions; /live follows', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await apiLogin(request, createUser('admin').email);
  const marshal = await apiLogin(request, createUser('marshall').email);
  const [a, b] = await verifiedRiders(request, admin.token, 2);
  if (!a || !b) throw new Error('riders not made');
  const tag = randomUUID().slice(0, 5);
  const start = await station(request, admin, `Flag-off ${tag}`, 'start', 0);
  const cp = await station(request, admin, `Ridge ${tag}`, 'checkpoint', 1);
  await station(request, admin, `Arch ${tag}`, 'finish', 2);

  // Before the flag-off the public tracker names no station.
  await page.goto('/live');
  await page.getByRole('tab', { name: /Lakan/ }).click();
  await expect(page.getByTestId('live-classified')).toBeVisible();
  await expect(page.locator(`[data-rider-number="${a.riderNumber}"]`)).toBeVisible();
  await expect(page.getByText(`Flag-off ${tag}`)).toHaveCount(0);
  const classified = await (await request.get('/api/live')).text();
  expect(classified).not.toContain(tag);

  // Pace: due at the checkpoint 60 min after the start, overdue at once past it.
  const rules = await request.put('/api/admin/event/rules/lakan', {
    headers: bearer(admin.token),
    data: { overdueAfterMinutes: 0, stations: [{ stationId: cp.id, dueMinutes: 60 }] },
  });
  expect(rules.ok(), await rules.text()).toBeTruthy();
  const startedAt = new Date(Date.now() - 10 * 60_000);
  await sync(request, marshal, start.id, a, startedAt);
  await sync(request, marshal, start.id, b, startedAt);

  const one = await openBoard(browser, admin);
  const two = await openBoard(browser, admin);
  for (const board of [one, two]) {
    await expect(stationRow(board, cp.name).getByTestId('count-passed')).toHaveAccessibleName(/^0 Passed/);
    await expect(stationRow(board, start.name).getByTestId('count-passed')).toHaveAccessibleName(/^2 Passed/);
  }

  // A scan synced by a marshal's phone reaches both boards without a reload.
  await sync(request, marshal, cp.id, a, new Date());
  for (const board of [one, two]) {
    await expect(stationRow(board, cp.name).getByTestId('count-passed')).toHaveAccessibleName(/^1 Passed/);
    await expect(board.getByTestId('overdue-count')).toHaveText('0');
  }

  // 90 minutes later on the server's clock, rider b has not reached the checkpoint.
  advanceServerClock(90);
  for (const board of [one, two]) {
    await expect(board.getByTestId('overdue-count')).toHaveText('1');
    await expect(
      board.getByTestId('overdue-list').locator(`[data-testid="board-rider"][data-rider-number="${b.riderNumber}"]`),
    ).toBeVisible();
    await expect(stationRow(board, cp.name).getByTestId('count-overdue')).toHaveAccessibleName(/^1 Overdue/);
  }

  // The count opens the riders behind it; the timeline takes a DNF decision.
  await stationRow(one, cp.name).getByTestId('count-overdue').click();
  const drill = one.getByTestId('bucket-riders');
  await expect(drill.locator(`[data-rider-number="${b.riderNumber}"]`)).toBeVisible();
  await drill.getByRole('button', { name: 'Timeline' }).click();
  const timeline = one.getByRole('dialog', { name: new RegExp(`#${b.riderNumber}`) });
  await expect(timeline.getByTestId('timeline-entry').first()).toContainText(start.name);
  await timeline.getByLabel('Reason', { exact: true }).selectOption('withdrew');
  await timeline.getByLabel(/Note/).fill('Withdrew by phone: bike failure');
  await timeline.getByRole('button', { name: 'Save Decision' }).click();
  await expect(timeline.getByText(/^DNF · Withdrew/)).toBeVisible();
  await timeline.press('Escape');
  await one.keyboard.press('Escape');
  // The decision reaches the other board through the stream.
  await expect(two.getByTestId('overdue-count')).toHaveText('0');
  await expect(stationRow(two, cp.name).getByTestId('count-dnf')).toHaveAccessibleName(/^1 DNF/);

  // After the flag-off the tracker shows where each rider was last seen.
  await page.reload();
  await page.getByRole('tab', { name: /Lakan/ }).click();
  await expect(page.getByTestId('live-classified')).toHaveCount(0);
  const cardA = page.locator(`[data-testid="live-rider"][data-rider-number="${a.riderNumber}"]`);
  await expect(cardA.getByTestId('live-last-station')).toContainText(cp.name);
  const cardB = page.locator(`[data-testid="live-rider"][data-rider-number="${b.riderNumber}"]`);
  await expect(cardB.getByTestId('live-state')).toHaveText('DNF');
});
