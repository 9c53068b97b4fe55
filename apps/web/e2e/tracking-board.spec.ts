// The board's tracking layer (issue 42): positions Traccar Client sends put a rider's marker
// on the Event Day map while the console watches (pushed over the event stream, no reload),
// labelled with the rider's number and state; a stop of 16 minutes away from any station
// raises a "stopped" alert on the board, which a marshal dismisses with a reason.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type { Incident } from '@rally/shared/contracts/incidents';
import { shownRiderNumber, signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { addStation, auth, type Session, session, verifiedRider } from './support/event-day';
import { expect, test } from './support/fixtures';
import {
  east,
  type Fix,
  sendPositions,
  serverClockOffsetMs,
  somewhereInBukidnon,
  turnTrackingOn,
} from './support/tracking';

async function boardPage(browser: Browser, staff: Session): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  await signInWithToken(page, staff.token, staff.user);
  await page.goto('/admin?tab=event-day');
  await expect(page.getByTestId('tracking-board')).toBeVisible();
  return page;
}

/** A screenshot of the page with the tracking section at the top, under the console's header. */
async function shoot(page: Page, name: string) {
  await page.getByTestId('tracking-board').evaluate((el) => {
    window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 96, behavior: 'instant' });
  });
  await page.screenshot({ path: test.info().outputPath(name) });
}

/** The server's clock, which other specs of this worker may have moved forward (see serverClockOffsetMs). */
let serverAhead = 0;
const minutesAgo = (m: number) => new Date(Date.now() + serverAhead - m * 60_000);

test('positions sent to the server put the rider on the board’s map live; a 16-minute stop alerts and is dismissed with a reason', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  serverAhead = serverClockOffsetMs();
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await verifiedRider(request, admin);
  const other = await verifiedRider(request, admin);
  const tag = `#${shownRiderNumber(rider.user.riderNumber)}`;
  const otherTag = `#${shownRiderNumber(other.user.riderNumber)}`;
  const trackingId = await turnTrackingOn(request, rider);
  // Flagged off 25 minutes ago: only a rider on course is alerted for (not one in a hotel car park).
  const start = await addStation(request, admin, {
    name: `Flag-off ${randomUUID().slice(0, 6)}`,
    kind: 'start',
    day: 1,
  });
  const flagOff = await request.post('/api/admin/scans', {
    headers: auth(marshal),
    data: {
      scans: [
        {
          id: randomUUID(),
          stationId: start.id,
          riderCode: rider.user.riderCode,
          scannedAt: minutesAgo(25).toISOString(),
          deviceId: 'e2e-tracking-board',
          source: 'camera',
        },
      ],
    },
  });
  expect((await flagOff.json()).data.results[0].status).toBe('accepted');

  const page = await boardPage(browser, marshal);
  await expect(page.getByTestId('tracking-legend')).toContainText('Moving');
  await expect(page.getByTestId('tracking-legend')).toContainText('Stopped');
  // Wait until the console hears the stream, so what follows arrives as pushed events.
  await expect(page.getByTestId('control-board').getByTestId('stream-status')).toHaveAttribute('data-status', 'live');
  const marker = page.locator(`[data-testid="tracker-marker"][data-rider="${tag}"]`);
  await expect(marker).toHaveCount(0);

  // Riding along a Bukidnon road for five minutes, a fix a minute (~40 km/h), then stopping.
  const road = somewhereInBukidnon();
  const riding: Fix[] = [21, 20, 19, 18, 17].map((m, i) => ({
    ...east({ lat: road.lat + i * 0.002, lon: road.lon }, i * 600),
    at: minutesAgo(m),
    speed: 21,
    batt: 64,
  }));
  await sendPositions(request, trackingId, riding);
  await expect(marker).toBeVisible();
  await expect(page.getByTestId('tracked-rider').filter({ hasText: tag })).toBeVisible();

  // Every tracked rider has a marker: another one riding right now, a few kilometres on.
  const otherId = await turnTrackingOn(request, other);
  const ahead = east({ lat: road.lat + 0.03, lon: road.lon }, 6_000);
  await sendPositions(
    request,
    otherId,
    [2, 1, 0].map((m, i) => ({ ...east(ahead, i * 700), at: minutesAgo(m), speed: 23, batt: 88 })),
  );
  const otherMarker = page.locator(`[data-testid="tracker-marker"][data-rider="${otherTag}"]`);
  await expect(otherMarker).toHaveAttribute('data-state', 'moving');

  // Sixteen minutes without moving beyond a few metres, away from any station.
  const stop = east({ lat: road.lat + 4 * 0.002, lon: road.lon }, 4 * 600);
  const stopped: Fix[] = Array.from({ length: 17 }, (_, i) => ({
    lat: stop.lat + (i % 2) * 0.00003,
    lon: stop.lon,
    at: minutesAgo(16 - i),
    speed: 0,
    batt: 60,
  }));
  await sendPositions(request, trackingId, stopped);
  await expect(marker).toHaveAttribute('data-state', 'stopped');
  const alert = page.getByTestId('tracker-alert').filter({ hasText: tag });
  await expect(alert).toBeVisible({ timeout: 20_000 });
  await expect(alert).toContainText('Stopped since');
  // On the SOS path: the console's alarm rings for it, and a marshal acknowledges it there.
  const alarm = page.getByTestId('incident-alarm');
  await expect(alarm).toContainText(new RegExp(`#${rider.user.riderNumber}\\b.*· Stopped`));
  await alarm.getByTestId('alarm-acknowledge').click();
  await expect(alarm).toBeHidden();

  // The rider's track, state, speed and battery, chosen on the map.
  await marker.click();
  const details = page.getByTestId('tracked-rider-details');
  await expect(details).toContainText(tag);
  await expect(details).toContainText('Stopped');
  await expect(details.getByTestId('detail-battery')).toHaveText('60%');
  await expect(details.getByTestId('detail-track')).toHaveText(`${riding.length + stopped.length} positions`);
  await expect(page.getByTestId('tracking-map').locator('path.rider-track')).toHaveCount(2);
  await expectNoViolations(page);
  // For docs/tracking.md: the board as a marshal sees it, at a laptop's width and a phone's.
  await shoot(page, 'tracking-board-1280.png');
  await page.setViewportSize({ width: 360, height: 800 });
  await shoot(page, 'tracking-board-360.png');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Dismissed with a reason: one is required, a quick pick fills it, free text may replace it.
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`Dismiss: ${tag} Stopped`) });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Dismiss alert' }).click();
  await expect(dialog.getByRole('alert')).toContainText('a reason is required');
  await dialog.getByRole('button', { name: 'Fuel stop' }).click();
  await expect(dialog.getByLabel('Reason')).toHaveValue('Fuel stop');
  await dialog.getByLabel('Reason').fill('Lunch in Malaybalay');
  await dialog.getByRole('button', { name: 'Dismiss alert' }).click();
  await expect(dialog).toBeHidden();
  await expect(alert).toHaveCount(0);

  const riders = await request.get('/api/admin/tracking/riders', { headers: auth(admin) });
  const mine = ((await riders.json()).data as Array<{ userId: string; alert: unknown }>).find(
    (r) => r.userId === rider.user.id,
  );
  expect(mine?.alert).toBeNull();
  // The alert's incident is resolved with the reason as its note.
  const incidents = await request.get('/api/admin/incidents', { headers: auth(admin), params: { status: 'resolved' } });
  const resolved = ((await incidents.json()).data as Incident[]).find((i) => i.rider.id === rider.user.id);
  expect(resolved).toMatchObject({ kind: 'stopped', status: 'resolved', resolutionNote: 'Lunch in Malaybalay' });

  // A dismissed stop does not alert again while the rider stays put.
  await sendPositions(request, trackingId, [{ ...stop, at: new Date(), speed: 0 }]);
  await expect(marker).toHaveAttribute('data-state', 'stopped');
  await expect(page.getByTestId('tracker-alert').filter({ hasText: tag })).toHaveCount(0);
  await page.context().close();
});
