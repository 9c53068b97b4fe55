// The marshal scanner (/scan) in real Chromium against the real server (issue 14):
// a fake camera showing a real rider's QR, decoded by the product under its own CSP; fifty
// riders scanned offline across two reloads that all arrive exactly once; and the page a
// rider gets instead of the scanner.
import { randomUUID } from 'node:crypto';
import { apiLogin, bearer, registerRider, signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';
import {
  createStation,
  deviceScans,
  launchWithCamera,
  offlineAtStation,
  openStation,
  qrY4m,
  rosterIds,
  stationScanCount,
  verifiedRiders,
  waitForServiceWorker,
  wireScans,
} from './support/scanner';

// The config blocks service workers for every other spec; the scanner's offline life is one.
test.use({ serviceWorkers: 'allow' });

test('a rider who opens /scan is told who it is for; a signed-out visitor gets the sign-in', async ({
  page,
  request,
}) => {
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Sign in to scan' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();

  const rider = await registerRider(request);
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'For marshals only' })).toBeVisible();
  await expect(page.getByText('This scanner is for the marshals and staff')).toBeVisible();
  await expect(page.getByRole('link', { name: 'My rider pass' })).toHaveAttribute('href', '/me');
  await expect(page.getByLabel('Rider number')).toHaveCount(0);
});

test('the camera reads a real rider QR under the product CSP and the scan reaches the server once', async ({
  request,
  baseURL,
}) => {
  const admin = await apiLogin(request, createUser('admin').email);
  const marshal = createUser('marshall');
  const [rider] = await verifiedRiders(request, admin.token, 1);
  if (!rider) throw new Error('no rider');
  const station = await createStation(request, admin.token, `Camera CP ${randomUUID().slice(0, 6)}`);

  const browser = await launchWithCamera(qrY4m(rider.riderCode));
  try {
    const context = await browser.newContext({ baseURL, permissions: ['camera'] });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    const outside: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(String(baseURL))) outside.push(r.url());
    });

    await page.goto('/scan');
    await page.getByLabel('Email').fill(marshal.email);
    await page.getByLabel('Password', { exact: true }).fill(marshal.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: new RegExp(station.name) }).click();
    await expect(page.getByTestId('station-name')).toHaveText(station.name);
    await expect.poll(async () => (await rosterIds(page)).includes(rider.id)).toBe(true);

    await page.getByRole('button', { name: 'Start camera' }).click();
    const verdict = page.getByTestId('verdict');
    await expect(verdict).toHaveAttribute('data-tone', 'accepted', { timeout: 20_000 });
    await expect(page.getByTestId('verdict-number')).toHaveText(`#${rider.riderNumber}`);
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '0');

    // The sticker stays in front of the camera: still one scan.
    await page.waitForTimeout(2_500);
    await page.getByRole('button', { name: 'Stop camera' }).click();
    const scans = await deviceScans(page);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ source: 'camera', riderCode: rider.riderCode, state: 'synced' });
    expect(scans[0]?.result?.status).toBe('accepted');

    expect(await stationScanCount(request, admin.token, station.id)).toBe(1);
    const passages = await request.get('/api/my/passages', { headers: bearer(rider.token) });
    expect(((await passages.json()).data as { stationId: string }[]).map((p) => p.stationId)).toContain(station.id);
    expect(cspViolations).toEqual([]);
    expect(outside).toEqual([]);
  } finally {
    await browser.close();
  }
});

test('fifty riders scanned offline across two reloads arrive exactly once; a replay changes nothing', async ({
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const admin = await apiLogin(request, createUser('admin').email);
  const marshal = await apiLogin(request, createUser('marshall').email);
  const riders = await verifiedRiders(request, admin.token, 50);
  const [byCamera, ...typed] = riders;
  if (!byCamera) throw new Error('no rider');
  const station = await createStation(request, admin.token, `Offline CP ${randomUUID().slice(0, 6)}`);

  const browser = await launchWithCamera(qrY4m(byCamera.riderCode));
  try {
    const context = await browser.newContext({
      baseURL,
      permissions: ['camera'],
      serviceWorkers: 'allow',
    });
    // Every text the pending badge shows, per page load: after a reload it must never claim
    // "0 pending" while 21 scans wait on the phone.
    await context.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { pendingTexts: seen });
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="pending-count"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    await offlineAtStation(page, marshal, station.name, riders);
    await expect(page.getByTestId('online-state')).toHaveText('Offline');

    await page.getByRole('button', { name: 'Start camera' }).click();
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-tone', 'accepted', { timeout: 20_000 });
    await expect(page.getByTestId('verdict-number')).toHaveText(`#${byCamera.riderNumber}`);
    await page.getByRole('button', { name: 'Stop camera' }).click();

    const field = page.getByLabel('Rider number');
    const typeRiders = async (list: typeof typed) => {
      for (const rider of list) {
        await field.fill(String(rider.riderNumber));
        await field.press('Enter');
        await expect(page.getByTestId('verdict-number')).toHaveText(`#${rider.riderNumber}`);
        await expect(page.getByTestId('verdict')).toHaveAttribute('data-tone', 'accepted');
      }
    };
    await typeRiders(typed.slice(0, 20));
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '21');

    // Offline reloads: the service worker serves the page, the session and queue survive.
    await page.reload();
    await expect(page.getByTestId('station-name')).toHaveText(station.name);
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '21');
    const shown = await page.evaluate(() => (window as unknown as { pendingTexts: string[] }).pendingTexts);
    expect(shown.filter((text) => /^\d+ pending/.test(text))).toEqual(['21 pending']);
    await typeRiders(typed.slice(20, 35));
    await page.reload();
    await expect(page.getByTestId('station-name')).toHaveText(station.name);
    await typeRiders(typed.slice(35));
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '50');
    expect(await stationScanCount(request, admin.token, station.id)).toBe(0);

    await context.setOffline(false);
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '0', { timeout: 30_000 });

    const scans = await deviceScans(page);
    expect(scans).toHaveLength(50);
    expect(new Set(scans.map((s) => s.id)).size).toBe(50);
    expect(scans.filter((s) => s.source === 'camera')).toHaveLength(1);
    expect(scans.every((s) => s.state === 'synced' && s.result?.status === 'accepted')).toBe(true);
    expect(scans.every((s) => s.recordedBy === marshal.user.id)).toBe(true);
    expect(await stationScanCount(request, admin.token, station.id)).toBe(50);

    const replay = await request.post('/api/admin/scans', {
      headers: bearer(marshal.token),
      data: { scans: wireScans(scans) },
    });
    expect(replay.ok(), await replay.text()).toBeTruthy();
    const results = (await replay.json()).data.results as { id: string; status: string; original?: string }[];
    expect(results.map((r) => r.id)).toEqual(scans.map((s) => s.id));
    expect(results.every((r) => r.status === 'duplicate' && r.original === 'accepted')).toBe(true);
    expect(await stationScanCount(request, admin.token, station.id)).toBe(50);
  } finally {
    await browser.close();
  }
});

test('a session that ends while offline keeps the queue until the marshal signs in again', async ({
  browser,
  request,
}) => {
  const admin = await apiLogin(request, createUser('admin').email);
  const marshalUser = createUser('marshall');
  const marshal = await apiLogin(request, marshalUser.email);
  const riders = await verifiedRiders(request, admin.token, 2);
  const station = await createStation(request, admin.token, `Expiry CP ${randomUUID().slice(0, 6)}`);

  const context = await browser.newContext({ serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    await offlineAtStation(page, marshal, station.name, riders);
    const field = page.getByLabel('Rider number');
    for (const rider of riders) {
      await field.fill(String(rider.riderNumber));
      await field.press('Enter');
      await expect(page.getByTestId('verdict-number')).toHaveText(`#${rider.riderNumber}`);
    }
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '2');

    // The session ends on the server while the phone has no signal.
    expect((await request.post('/api/auth/logout', { headers: bearer(marshal.token), data: {} })).ok()).toBeTruthy();
    await page.reload();
    await context.setOffline(false);

    // Refused, not lost: a sign-in form, and nothing reached the server.
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 20_000 });
    expect(await stationScanCount(request, admin.token, station.id)).toBe(0);
    expect((await deviceScans(page)).filter((s) => s.state === 'pending')).toHaveLength(2);
    // Signed out, the phone keeps no roster (names, codes, photos) for the next person.
    await expect.poll(() => rosterIds(page)).toEqual([]);

    await page.getByLabel('Email').fill(marshalUser.email);
    await page.getByLabel('Password', { exact: true }).fill(marshalUser.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '0', { timeout: 20_000 });
    await expect.poll(() => stationScanCount(request, admin.token, station.id), { timeout: 30_000 }).toBe(2);
    // The server has both before the phone has read its answer: wait for the device's copies
    // (a one-off read here failed in CI with the batch's answer still on its way).
    await expect
      .poll(async () => (await deviceScans(page)).map((s) => `${s.state} by ${s.recordedBy}`), { timeout: 30_000 })
      .toEqual([`synced by ${marshal.user.id}`, `synced by ${marshal.user.id}`]);
  } finally {
    await context.close();
  }
});

test('the landing page registers no service worker; /scan does, with its own manifest', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('load');
  await page.waitForTimeout(1_500);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Sign in to scan' })).toBeVisible();
  await waitForServiceWorker(page);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/scan.webmanifest');
  const manifest = await (await page.request.get('/scan.webmanifest')).json();
  expect(manifest).toMatchObject({ start_url: '/scan', display: 'standalone' });
  for (const icon of manifest.icons as { src: string }[]) {
    const res = await page.request.get(icon.src);
    expect(res.headers()['content-type']).toBe('image/png');
  }
});

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test(`the scanner has no WCAG 2.1 AA violations at ${viewport.width} px`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const admin = await apiLogin(request, createUser('admin').email);
    const [rider] = await verifiedRiders(request, admin.token, 1);
    if (!rider) throw new Error('no rider');
    const station = await createStation(request, admin.token, `A11y CP ${randomUUID().slice(0, 6)}`);
    await page.goto('/scan');
    await expect(page.getByRole('heading', { name: 'Sign in to scan' })).toBeVisible();
    await expectNoViolations(page);
    await signInWithToken(page, admin.token, admin.user);
    await page.goto('/scan');
    await expect(page.getByRole('heading', { name: 'Pick your station' })).toBeVisible();
    await expectNoViolations(page);
    await page.getByRole('button', { name: new RegExp(station.name) }).click();
    await expect.poll(async () => (await rosterIds(page)).includes(rider.id)).toBe(true);
    const field = page.getByLabel('Rider number');
    for (const [typed, tone] of [
      [String(rider.riderNumber), 'accepted'],
      ['100000', 'unknown'],
    ] as const) {
      await field.fill(typed);
      await field.press('Enter');
      await expect(page.getByTestId('verdict')).toHaveAttribute('data-tone', tone);
      await expect(page.getByTestId('pending-count')).toHaveAttribute('data-pending', '0');
      await expectNoViolations(page);
    }
  });
}

test('on start a refused session still logs out (the start-up rule), whatever the page', async ({ page, request }) => {
  const marshal = await apiLogin(request, createUser('marshall').email);
  await signInWithToken(page, marshal.token, marshal.user);
  expect((await request.post('/api/auth/logout', { headers: bearer(marshal.token), data: {} })).ok()).toBeTruthy();
  await page.goto('/scan');
  await expect(page.getByRole('heading', { name: 'Sign in to scan' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

test('at a kit station a marshal sees the kit read-only and kit staff hand over all three items', async ({
  browser,
  page,
  request,
}) => {
  const admin = await apiLogin(request, createUser('admin').email);
  const marshal = await apiLogin(request, createUser('marshall').email);
  const [rider] = await verifiedRiders(request, admin.token, 1);
  if (!rider) throw new Error('no rider');
  const res = await request.post('/api/admin/stations', {
    headers: bearer(admin.token),
    data: { name: `Kit tent ${randomUUID().slice(0, 6)}`, kind: 'kit', day: 1 },
  });
  const station = (await res.json()).data as { id: string; name: string };

  const scanAt = async (p: typeof page) => {
    await openStation(p, station.name, [rider.id]);
    await p.getByLabel('Rider number').fill(String(rider.riderNumber));
    await p.getByLabel('Rider number').press('Enter');
    await expect(p.getByTestId('verdict-number')).toHaveText(`#${rider.riderNumber}`);
    return p.getByTestId('kit-panel');
  };

  const marshalContext = await browser.newContext();
  try {
    const marshalPage = await marshalContext.newPage();
    await signInWithToken(marshalPage, marshal.token, marshal.user);
    const kit = await scanAt(marshalPage);
    await expect(kit.getByText('Not given')).toHaveCount(3);
    await expect(kit.getByText('Read-only')).toBeVisible();
    await expect(kit.getByRole('button', { name: 'Hand over all' })).toHaveCount(0);
  } finally {
    await marshalContext.close();
  }

  await signInWithToken(page, admin.token, admin.user);
  const kit = await scanAt(page);
  await expect(kit.getByText('Not given')).toHaveCount(3);
  await kit.getByRole('button', { name: 'Hand over all' }).click();
  await expect(kit.locator('[data-given="true"]')).toHaveCount(3);
  await expect(kit.getByRole('button', { name: 'Hand over all' })).toHaveCount(0);
  const state = await request.get(`/api/admin/kit-tracking/${rider.id}`, { headers: bearer(admin.token) });
  expect((await state.json()).data).toMatchObject({
    tshirt_given: true,
    vest_given: true,
    finisher_sleeve_given: true,
  });
});
