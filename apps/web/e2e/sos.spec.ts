// SOS and incidents in a real browser (issue 15): a rider with no signal
// presses and holds SOS, the call waits on the phone and lands once with the position when
// the signal returns; a marshal acknowledges it on the console's incident board and the
// rider's screen says who and when. A tap sends nothing; 30 s without delivery offers a
// call and an SMS to the hotline. A flood from one account is capped (the call stays on the
// phone with the hotline shown) and staff can mark an account's calls as abuse.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { type Incident, SOS_CALLS_PER_HOUR } from '@rally/shared/contracts/incidents';
import { bearer, registerRider, type Session, sessionOf, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';
import { hold, openSosSheet } from './support/sos';

async function verifiedRider(request: APIRequestContext, admin: Session): Promise<Session> {
  const registered = await registerRider(request);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: bearer(admin.token),
    data: { verification_code: registered.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();
  return sessionOf(request, registered);
}

/** An admin, a marshal and a verified rider of their own, as most tests here start. */
async function adminMarshalAndRider(request: APIRequestContext) {
  const admin = await sessionOf(request, createUser('admin'));
  const marshal = await sessionOf(request, createUser('marshall'));
  return { admin, marshal, rider: await verifiedRider(request, admin) };
}

/** The rider passes a station, so the incident carries a last station. */
async function passStation(request: APIRequestContext, admin: Session, marshal: Session, rider: Session) {
  const name = `Maramag ${randomUUID().slice(0, 6)}`;
  const station = await request.post('/api/admin/stations', {
    headers: bearer(admin.token),
    data: { name, kind: 'checkpoint' },
  });
  const stationId = (await station.json()).data.id;
  const scan = await request.post('/api/admin/scans', {
    headers: bearer(marshal.token),
    data: {
      scans: [
        {
          id: randomUUID(),
          stationId,
          riderCode: rider.user.riderCode,
          scannedAt: new Date().toISOString(),
          deviceId: 'e2e-sos',
          source: 'camera',
        },
      ],
    },
  });
  expect((await scan.json()).data.results[0].status).toBe('accepted');
  return name;
}

async function incidentsOf(request: APIRequestContext, admin: Session, riderId: string): Promise<Incident[]> {
  const res = await request.get('/api/admin/incidents', { headers: bearer(admin.token) });
  return ((await res.json()).data as Incident[]).filter((i) => i.rider.id === riderId);
}

const POSITION = { latitude: 7.07312, longitude: 125.61234, accuracy: 25 };

/** The rider on /me at POSITION when the signal goes: the SOS sheet opened offline. */
async function openSosOffline(page: Page, rider: Session) {
  const context = page.context();
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation(POSITION);
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await expect(page.getByTestId('sos-panel')).toBeVisible();
  // The page is the server's drawing until its scripts run; the signal goes once they have.
  await expect(page.getByTestId('sos-open')).toBeEnabled();
  await context.setOffline(true);
  await openSosSheet(page);
}

async function staffPage(browser: Browser, staff: Session): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
  await signInWithToken(page, staff.token, staff.user);
  await page.goto('/admin?tab=event-day');
  return page;
}

test('an SOS sent offline lands once with the position; the marshal acknowledges; the rider sees who', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const { admin, marshal, rider } = await adminMarshalAndRider(request);
  const stationName = await passStation(request, admin, marshal, rider);

  await openSosOffline(page, rider);
  await expect(page.getByTestId('sos-position')).toContainText('7.07312, 125.61234');
  await page.getByText('Crash', { exact: true }).click();
  await page.getByLabel('Note (optional)').fill('Slid on gravel, knee hurt');

  // A tap is not a hold: nothing is queued, the rider is told to keep holding.
  await page.getByTestId('sos-hold').click();
  await expect(page.getByText(/^Keep holding/)).toBeVisible();
  await expect(page.getByTestId('sos-pending')).toHaveCount(0);

  await hold(page, 1_900);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('sos-status')).toContainText('SOS saved on this phone, sending');
  await expect(page.getByTestId('sos-status')).toContainText('7.07312, 125.61234');
  expect(await incidentsOf(request, admin, rider.user.id)).toHaveLength(0);

  await context.setOffline(false);
  await expect(page.getByTestId('sos-status')).toContainText('Waiting for a marshal to acknowledge', {
    timeout: 20_000,
  });
  const landed = await incidentsOf(request, admin, rider.user.id);
  expect(landed).toHaveLength(1);
  expect(landed[0]).toMatchObject({
    kind: 'crash',
    status: 'open',
    note: 'Slid on gravel, knee hurt',
    position: { lat: POSITION.latitude, lng: POSITION.longitude, accuracy: POSITION.accuracy },
    lastStation: { name: stationName },
  });

  // The marshal's console: the board lists it (contact and medical for a marshal) and the alarm is up.
  const console = await staffPage(browser, marshal);
  const card = console.locator(`[data-incident="${landed[0]?.id}"]`);
  await expect(card).toBeVisible();
  await expect(card).toContainText('Crash');
  await expect(card).toContainText(stationName);
  await expect(card.getByTestId('incident-medical')).toContainText('Blood type');
  await expect(console.getByTestId('incident-alarm')).toBeVisible();
  await card.getByTestId('incident-acknowledge').click();
  await expect(card).toHaveAttribute('data-status', 'acknowledged');
  await expect(console.getByTestId('incident-alarm')).toHaveCount(0);

  // The rider's screen follows the open incident by itself.
  await expect(page.getByTestId('sos-status')).toContainText('Acknowledged by Marshal Test marshall at', {
    timeout: 20_000,
  });
  expect(await incidentsOf(request, admin, rider.user.id)).toHaveLength(1);
  await console.context().close();
});

test('a call left on a shared phone is sent only when the rider who made it signs in again', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const admin = await sessionOf(request, createUser('admin'));
  const first = await verifiedRider(request, admin);
  const second = await verifiedRider(request, admin);

  // Rider A presses SOS with no signal, then the phone is signed out (still offline).
  await openSosOffline(page, first);
  await page.getByText('Mechanical', { exact: true }).click();
  await page.getByLabel('Note (optional)').fill('Chain snapped near Impasugong');
  await hold(page, 1_900);
  await expect(page.getByTestId('sos-status')).toContainText('SOS saved on this phone, sending');
  await page.evaluate(() => localStorage.clear());
  await context.setOffline(false);

  // Rider B signs in on the same phone: A's call waits, and B is told it is there.
  await signInWithToken(page, second.token, second.user);
  await page.goto('/me');
  await expect(page.getByTestId('sos-others-waiting')).toContainText(
    'An SOS another rider made on this phone is kept here',
  );
  await expect(page.getByTestId('sos-pending')).toHaveCount(0);
  // B's own call goes at once, and only B's.
  await expect(page.getByTestId('sos-open')).toBeEnabled();
  await openSosSheet(page);
  await page.getByText('Lost', { exact: true }).click();
  await hold(page, 1_900);
  await expect(page.getByTestId('sos-status')).toContainText('Waiting for a marshal to acknowledge', {
    timeout: 20_000,
  });
  const seconds = await incidentsOf(request, admin, second.user.id);
  expect(seconds.map((i) => i.kind)).toEqual(['lost']);
  expect(JSON.stringify(seconds)).not.toContain('Chain snapped');
  expect(await incidentsOf(request, admin, first.user.id)).toHaveLength(0);

  // A signs in again: the call lands, under A, with A's note.
  await signInWithToken(page, first.token, first.user);
  await page.goto('/me');
  await expect(page.getByTestId('sos-status')).toContainText('Waiting for a marshal to acknowledge', {
    timeout: 20_000,
  });
  const firsts = await incidentsOf(request, admin, first.user.id);
  expect(firsts).toHaveLength(1);
  expect(firsts[0]).toMatchObject({ kind: 'mechanical', note: 'Chain snapped near Impasugong' });
  await expect(page.getByTestId('sos-others-waiting')).toHaveCount(0);
});

/** The element's foot is at or above the SOS bar's top edge. */
async function expectAboveAlarm(page: Page, element: Locator) {
  const bar = await page.getByTestId('incident-alarm').boundingBox();
  const box = await element.boundingBox();
  if (!bar || !box) throw new Error('the alarm or the element is not shown');
  expect(box.y + box.height).toBeLessThanOrEqual(bar.y + 1);
}

test('a tab whose code cannot download leaves the SOS button working', async ({ page, request }) => {
  const admin = await sessionOf(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  // My Details loads its notification settings after the page: the download that fails when
  // the signal goes just after the page opened.
  await page.route(/\/assets\/notification-settings-[^/]+\.js/, (route) => route.abort('internetdisconnected'));
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await expect(page.getByTestId('part-failed')).toContainText('Notifications and followers could not be loaded');
  await expect(page.getByRole('heading', { name: 'Warrior Identity' })).toBeVisible();
  await expect(page.getByTestId('sos-panel')).toBeVisible();
  await openSosSheet(page);
  await page.getByText('Lost', { exact: true }).click();
  await hold(page, 1_900);
  await expect(page.getByTestId('sos-status')).toContainText('Waiting for a marshal to acknowledge', {
    timeout: 20_000,
  });
  expect((await incidentsOf(request, admin, rider.user.id)).map((i) => i.kind)).toEqual(['lost']);
});

test('a new SOS raises the alarm on an open console page at once, until someone acknowledges', async ({
  page,
  request,
  browser,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const marshal = await sessionOf(request, createUser('marshall'));
  const officer = await sessionOf(request, createUser('officer'));
  const rider = await verifiedRider(request, admin);
  // Clear what earlier tests left open, so the alarm starts silent.
  for (const i of (
    await (await request.get('/api/admin/incidents?status=open', { headers: bearer(admin.token) })).json()
  ).data as Incident[]) {
    await request.post(`/api/admin/incidents/${i.id}/resolve`, {
      headers: bearer(admin.token),
      data: { note: 'e2e reset' },
    });
  }

  await signInWithToken(page, marshal.token, marshal.user);
  await page.goto('/admin?tab=dashboard');
  const watcher = await staffPage(browser, officer);
  await expect(page.locator('[data-tab="dashboard"]:visible')).toBeVisible();
  await expect(watcher.getByTestId('incidents-panel').getByTestId('stream-status')).toHaveText('Live');
  await expect(page.getByTestId('incident-alarm')).toHaveCount(0);

  const sent = Date.now();
  const id = randomUUID();
  const res = await request.post('/api/my/sos', { headers: bearer(rider.token), data: { id, kind: 'lost' } });
  expect(res.status()).toBe(201);
  // Pushed through the stream: no reload, and the console reads open incidents on no timer
  // (their query only refetches on a stream event), so arriving at all proves the push. The
  // bound is generous: two consoles' renderers share two busy cores with the other worker.
  await expect(page.getByTestId('incident-alarm')).toContainText(`#${rider.user.riderNumber}`, { timeout: 15_000 });
  await expect(watcher.getByTestId('incident-alarm')).toBeVisible({ timeout: 15_000 });
  expect(Date.now() - sent).toBeLessThan(15_000);
  await expect.poll(() => page.title()).toMatch(/^🚨 SOS/);
  // Officers watch but do not handle: no button for them.
  await expect(watcher.getByTestId('alarm-acknowledge')).toHaveCount(0);

  // The bar hides no section: the sidebar ends above it on a desktop, and on a phone the
  // menu's last section scrolls into view above it.
  await expectAboveAlarm(page, page.getByRole('navigation', { name: 'Console sections' }).last());
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Console sections' }).first();
  await menu.evaluate((nav) => nav.scrollTo(0, nav.scrollHeight));
  await expectAboveAlarm(page, menu.getByRole('button').last());
  await page.getByRole('button', { name: 'Menu' }).click();

  await page.getByTestId('alarm-acknowledge').click();
  await expect(page.getByTestId('incident-alarm')).toHaveCount(0);
  await expect(watcher.getByTestId('incident-alarm')).toHaveCount(0, { timeout: 5_000 });
  await expect.poll(() => page.title()).not.toMatch(/^🚨/);
  await watcher.context().close();
});

test('30 s without delivery offers a call and an SMS to the hotline with number, name and position', async ({
  page,
  context,
  request,
}) => {
  const admin = await sessionOf(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const saved = await request.put('/api/admin/settings/event', {
    headers: bearer(admin.token),
    data: { name: 'Mindanao Warriors 2026', startsOn: null, endsOn: null, hotline: '+63 917 555 0101' },
  });
  expect(saved.ok()).toBeTruthy();
  // The signal goes as the page opens, before the phone could ask for the settings: the
  // hotline comes with the page itself. (Going offline raced that request, and lost it on a
  // busy machine: the fallback then offered 911.)
  await page.route('**/api/settings/event', (route) => route.abort('internetdisconnected'));

  await page.clock.install();
  await openSosOffline(page, rider);
  await expect(page.getByTestId('sos-position')).toContainText('7.07312');
  const box = await page.getByTestId('sos-hold').boundingBox();
  if (!box) throw new Error('no hold button');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.clock.runFor(1_700);
  await page.mouse.up();
  await expect(page.getByTestId('sos-status')).toContainText('SOS saved on this phone');
  await expect(page.getByTestId('sos-fallback')).toHaveCount(0);

  await page.clock.runFor(31_000);
  await expect(page.getByTestId('sos-fallback')).toBeVisible();
  await expect(page.getByTestId('sos-call')).toHaveAttribute('href', 'tel:+639175550101');
  const sms = decodeURIComponent((await page.getByTestId('sos-sms').getAttribute('href')) ?? '');
  expect(sms).toMatch(/^sms:\+639175550101\?body=SOS OTHER: /);
  expect(sms).toContain(`Rider #${rider.user.riderNumber}`);
  expect(sms).toContain(`${rider.user.firstName} ${rider.user.lastName}`);
  expect(sms).toContain('7.07312,125.61234');
  await context.setOffline(false);
});

async function setHotline(request: APIRequestContext, admin: Session) {
  const saved = await request.put('/api/admin/settings/event', {
    headers: bearer(admin.token),
    data: { name: 'Mindanao Warriors 2026', startsOn: null, endsOn: null, hotline: '+63 917 555 0101' },
  });
  expect(saved.ok()).toBeTruthy();
}

async function sendSos(request: APIRequestContext, rider: Session, kind = 'crash') {
  return request.post('/api/my/sos', { headers: bearer(rider.token), data: { id: randomUUID(), kind } });
}

test('past the hourly cap the call stays on the phone, with the hotline to call', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await sessionOf(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  await setHotline(request, admin);
  // The rider's own presses: one incident, the rest joined to it, up to the hour's cap.
  expect((await sendSos(request, rider)).status()).toBe(201);
  for (let i = 1; i < SOS_CALLS_PER_HOUR; i++) expect((await sendSos(request, rider)).status()).toBe(200);

  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await expect(page.getByTestId('sos-open')).toBeEnabled();
  await openSosSheet(page);
  await page.getByText('Medical', { exact: true }).click();
  await page.getByLabel('Note (optional)').fill('Still here, leg hurts');
  await hold(page, 1_900);
  // Held back, never dropped: the server's words and the hotline, at once.
  await expect(page.getByTestId('sos-status')).toContainText('not sent yet', { timeout: 20_000 });
  await expect(page.getByTestId('sos-status')).toContainText('call the event hotline +63 917 555 0101');
  await expect(page.getByTestId('sos-fallback')).toBeVisible();
  await expect(page.getByTestId('sos-call')).toHaveAttribute('href', 'tel:+639175550101');
  const shots = process.env.E2E_SHOTS;
  if (shots) {
    await page.screenshot({ path: `${shots}/sos-held-back-${page.viewportSize()?.width}.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: `${shots}/sos-held-back-360.png`, fullPage: true });
  }
  // Still queued on the phone after a reload, and still one incident on the server.
  await page.reload();
  await expect(page.getByTestId('sos-pending')).toBeVisible();
  const mine = await incidentsOf(request, admin, rider.user.id);
  expect(mine).toHaveLength(1);
  expect(mine[0]?.callCount).toBe(SOS_CALLS_PER_HOUR);
  for (const i of mine) {
    await request.post(`/api/admin/incidents/${i.id}/resolve`, {
      headers: bearer(admin.token),
      data: { note: 'e2e done' },
    });
  }
});

for (const viewport of [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 900 },
]) {
  test(`staff mark an account's calls as abuse after a confirm, see its later calls apart, and lift it (${viewport.name})`, async ({
    request,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { admin, marshal, rider: prankster } = await adminMarshalAndRider(request);
    const first = await sendSos(request, prankster);
    expect(first.status()).toBe(201);
    const firstId = (await first.json()).data.incident.id as string;
    expect((await sendSos(request, prankster, 'lost')).status()).toBe(200);

    const board = await staffPage(browser, marshal);
    await board.setViewportSize({ width: viewport.width, height: viewport.height });
    const shots = process.env.E2E_SHOTS;
    const number = `#${prankster.user.riderNumber}`;
    // The alarm names every open call in the install, other tests' too: #99 must not match #990.
    const numbered = new RegExp(`${number}(?!\\d)`);
    const card = board.locator(`[data-incident="${firstId}"]`);
    await expect(card).toBeVisible();
    await expect(card.getByTestId('incident-follow-ups')).toContainText('Pressed SOS 2 times');
    await expect(board.getByTestId('incident-alarm')).toContainText(numbered);

    // A confirm step: the first press only opens the question.
    await card.getByTestId('incident-mark-abuse').click();
    await expect(card.getByRole('form', { name: "Mark this account's calls as abuse" })).toBeVisible();
    await expect(card.getByTestId('incident-confirm-abuse')).toBeDisabled();
    await card.getByLabel('Why (required)').fill('Prank: 2 calls, rider laughed on the phone');
    await expectNoViolations(board);
    if (shots) await board.screenshot({ path: `${shots}/abuse-confirm-${viewport.width}.png`, fullPage: true });
    await card.getByTestId('incident-confirm-abuse').click();
    // Resolved: off the active board, and the alarm no longer names the rider.
    await expect(card).toHaveCount(0);
    await expect(board.getByTestId('incident-alarm').filter({ hasText: numbered })).toHaveCount(0);

    // A later call is kept but silent, and listed apart.
    const later = await sendSos(request, prankster, 'medical');
    expect(later.status()).toBe(201);
    const laterId = (await later.json()).data.incident.id as string;
    const apart = board.getByTestId('incidents-muted');
    await expect(apart).toContainText('1 unresolved · 1 marked');
    await apart.locator('summary').click();
    const mutedCard = apart.locator(`[data-incident="${laterId}"]`);
    await expect(mutedCard.getByTestId('incident-muted')).toBeVisible();
    await expect(board.getByTestId('incident-alarm').filter({ hasText: numbered })).toHaveCount(0);
    await expectNoViolations(board);
    await expectNoSidewaysScroll(board);
    if (shots) await board.screenshot({ path: `${shots}/abuse-apart-${viewport.width}.png`, fullPage: true });

    // Lifting the mark (confirmed): the call still waiting rings the alarm now.
    const mark = apart.getByTestId('abuse-mark').filter({ hasText: numbered });
    await mark.getByRole('button', { name: 'Lift mark...' }).click();
    await mark.getByRole('button', { name: 'Lift: their calls ring again' }).click();
    await expect(board.getByTestId('incident-alarm')).toContainText(numbered, { timeout: 15_000 });
    await expect(board.locator(`[data-incident="${laterId}"]`).first()).toBeVisible();
    for (const i of await incidentsOf(request, admin, prankster.user.id)) {
      if (i.status === 'resolved') continue;
      await request.post(`/api/admin/incidents/${i.id}/resolve`, {
        headers: bearer(admin.token),
        data: { note: 'e2e done' },
      });
    }
    await board.context().close();
  });
}

for (const viewport of [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`SOS and the incident board on a ${viewport.name}: no overflow`, async ({ page, context, request, browser }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { admin, marshal, rider } = await adminMarshalAndRider(request);
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation(POSITION);
    await signInWithToken(page, rider.token, rider.user);
    await page.goto('/me');
    await expect(page.getByTestId('sos-panel')).toBeVisible();
    const shots = process.env.E2E_SHOTS;
    if (shots) await page.screenshot({ path: `${shots}/sos-panel-${viewport.width}.png` });
    await openSosSheet(page);
    await page.getByText('Medical', { exact: true }).click();
    await expect(page.getByTestId('sos-position')).toContainText('7.07312');
    if (shots) await page.screenshot({ path: `${shots}/sos-sheet-${viewport.width}.png` });
    await expectNoViolations(page);
    await hold(page, 1_900);
    await expect(page.getByTestId('sos-status')).toContainText('Waiting for a marshal', { timeout: 20_000 });
    if (shots) await page.screenshot({ path: `${shots}/sos-sent-${viewport.width}.png`, fullPage: true });
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);

    const board = await staffPage(browser, marshal);
    await board.setViewportSize({ width: viewport.width, height: viewport.height });
    await expect(board.getByTestId('incident-card').first()).toBeVisible();
    await expect(board.getByTestId('incident-alarm')).toBeVisible();
    await expectNoViolations(board);
    if (shots) {
      await board.screenshot({ path: `${shots}/board-${viewport.width}.png`, fullPage: true });
      await board.goto('/admin?tab=settings');
      await expect(board.getByLabel('Emergency hotline')).toBeVisible();
      await board.screenshot({ path: `${shots}/settings-${viewport.width}.png`, fullPage: true });
      await board.goto('/admin?tab=event-day');
    }
    await expectNoSidewaysScroll(board);
    // Leave no open incident behind to ring in the other tests' consoles.
    for (const i of await incidentsOf(request, admin, rider.user.id)) {
      await request.post(`/api/admin/incidents/${i.id}/resolve`, {
        headers: bearer(admin.token),
        data: { note: 'e2e done' },
      });
    }
    await board.context().close();
  });
}
