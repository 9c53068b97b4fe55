// Tracking on the rider pass (issue 42): a verified rider reads what tracking does, ticks the
// consent and turns it on; the QR on the pass decodes to Traccar Client's configuration link
// for this rider; and while the pass is open the phone's own position reaches the server,
// offline first (queued on the phone and counted while there is no signal, sent when it
// returns). Turning it off stops the tracking id at once.
import type { Page } from '@playwright/test';
import {
  TRACKING_BATTERY_HINT,
  TRACKING_CLIENT_SETTINGS,
  TRACKING_CONSENT_TEXT,
  TRACKING_SETUP_STEPS,
} from '@rally/shared/catalog/tracking';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { type Session, session, verifiedRider } from './support/event-day';
import { expect, test, toast } from './support/fixtures';
import { east, myTracking, sendPositions, somewhereInBukidnon } from './support/tracking';

async function openPass(page: Page, rider: Session) {
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await page.getByRole('tab', { name: 'Rider Code' }).click();
  await expect(page.getByTestId('rider-pass')).toBeVisible();
}

/** Decodes the QR drawn on the page from a screenshot of it, as a phone's camera would read it. */
async function decodeQr(page: Page, testId: string): Promise<string | null> {
  const png = PNG.sync.read(await page.getByTestId(testId).screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

test('a verified rider turns tracking on; the QR configures Traccar Client; the pass sends its own position, offline first', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await session(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const here = somewhereInBukidnon();
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: here.lat, longitude: here.lon, accuracy: 12 });
  await page.setViewportSize({ width: 360, height: 800 });

  await openPass(page, rider);
  const card = page.getByTestId('tracking-card');
  await expect(card.getByTestId('tracking-status')).toHaveText('Off');
  for (const line of TRACKING_CONSENT_TEXT) await expect(card).toContainText(line);
  // Opt-in: the box starts unticked and the button waits for it.
  const consent = card.getByRole('checkbox', { name: /I have read this and agree/ });
  await expect(consent).not.toBeChecked();
  const turnOn = card.getByRole('button', { name: 'Turn on tracking' });
  await expect(turnOn).toBeDisabled();
  expect((await myTracking(request, rider)).enabled).toBe(false);
  await consent.check();
  await turnOn.click();
  await expect(card.getByTestId('tracking-status')).toHaveText('On');
  // The toast would cover the code on a phone's screen (and in its screenshot).
  await toast(page, 'Tracking is on').getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast(page, 'Tracking is on')).toHaveCount(0);

  // The QR is Traccar Client's configuration link for this rider: the server's osmand URL with
  // the tracking id (a secret, not the rider code), 60 s, 100 m, high accuracy, buffering on.
  const mine = await myTracking(request, rider);
  expect(mine.enabled).toBe(true);
  const trackingId = mine.trackingId ?? '';
  expect(trackingId).not.toBe(rider.user.riderCode);
  expect(trackingId.length).toBeGreaterThanOrEqual(22);
  await expect(card.getByTestId('tracking-qr')).toBeVisible();
  const decoded = await decodeQr(page, 'tracking-qr');
  expect(decoded).toBe(mine.setupUrl);
  const link = new URL(decoded ?? '');
  expect(link.origin).toBe(new URL(baseURL ?? '').origin);
  expect(link.pathname).toBe('/api/tracking/osmand');
  expect([...link.searchParams.keys()]).toEqual(['id', 'interval', 'distance', 'accuracy', 'buffer']);
  expect(Object.fromEntries(link.searchParams)).toEqual({
    id: trackingId,
    interval: String(TRACKING_CLIENT_SETTINGS.interval),
    distance: String(TRACKING_CLIENT_SETTINGS.distance),
    accuracy: 'high',
    buffer: 'true',
  });
  expect(decoded).toBe(
    `${new URL(baseURL ?? '').origin}/api/tracking/osmand?id=${trackingId}&interval=60&distance=100&accuracy=high&buffer=true`,
  );
  for (const step of TRACKING_SETUP_STEPS) await expect(card.getByTestId('tracking-steps')).toContainText(step);
  await expect(card).toContainText(TRACKING_BATTERY_HINT);

  // The pass's own position, taken with the card open, reaches the server.
  await expect
    .poll(async () => (await myTracking(request, rider)).lastPosition, { timeout: 15_000 })
    .toMatchObject({ lat: here.lat, lng: here.lon });
  await expect(card.getByTestId('tracking-last')).toHaveText('Last position just now');
  await expect(card.getByTestId('tracking-own')).toContainText('This phone also sends its position');
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);
  await card.screenshot({ path: test.info().outputPath('tracking-pass-360.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.screenshot({ path: test.info().outputPath('tracking-pass-1280.png') });
  await page.setViewportSize({ width: 360, height: 800 });

  // No signal: the next positions (400 m on, then 400 m more) are kept on the phone and
  // counted, not lost; a move of 30 m within the minute is not worth one.
  await context.setOffline(true);
  const on = east(here, 400);
  await context.setGeolocation({ latitude: on.lat, longitude: on.lon, accuracy: 12 });
  await expect(card.getByTestId('tracking-pending')).toHaveText('1 position waiting for signal');
  const nudge = east(on, 30);
  await context.setGeolocation({ latitude: nudge.lat, longitude: nudge.lon, accuracy: 12 });
  const further = east(on, 400);
  await context.setGeolocation({ latitude: further.lat, longitude: further.lon, accuracy: 12 });
  await expect(card.getByTestId('tracking-pending')).toHaveText('2 positions waiting for signal');
  expect((await myTracking(request, rider)).lastPosition).toMatchObject({ lat: here.lat, lng: here.lon });

  // Signal back: it goes by itself, and the count clears.
  await context.setOffline(false);
  await expect(card.getByTestId('tracking-pending')).toHaveCount(0, { timeout: 20_000 });
  await expect
    .poll(async () => (await myTracking(request, rider)).lastPosition, { timeout: 15_000 })
    .toMatchObject({ lat: further.lat, lng: further.lon });

  // Traccar Client, set up by the link, is heard under the same id.
  const later = new Date(Date.now() + 1_000);
  await sendPositions(request, trackingId, [{ ...east(further, 300), at: later, speed: 20 }]);
  await expect.poll(async () => (await myTracking(request, rider)).lastPosition?.at).toBe(later.toISOString());

  // Off: the id stops working at once.
  await card.getByRole('button', { name: 'Turn off tracking' }).click();
  await expect(card.getByTestId('tracking-status')).toHaveText('Off');
  await expect(card.getByRole('checkbox', { name: /I have read this and agree/ })).not.toBeChecked();
  const refused = await request.post('/api/tracking/osmand', {
    data: [{ id: trackingId, lat: here.lat, lon: here.lon, timestamp: new Date().toISOString() }],
  });
  expect(refused.status()).toBe(404);
});
