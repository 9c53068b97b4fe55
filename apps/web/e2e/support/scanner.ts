// Event-day test data and tools for the scanner specs: verified riders, a station, the
// rider's QR as a fake camera file, and a Chromium launched with that camera.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, type Browser, chromium, expect, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import type { QueuedScan } from '../../src/lib/offline/offline-db';
import { bearer, registerRider, type Session, signInWithToken } from './api';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from './chromium';
import { ROOT } from './env';
import { pngFixture } from './images';

/** A station of its own for one test, so counts are the test's alone. */
export async function createStation(request: APIRequestContext, adminToken: string, name: string) {
  const res = await request.post('/api/admin/stations', {
    headers: bearer(adminToken),
    data: { name, kind: 'checkpoint', day: 1 },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as { id: string; name: string };
}

export async function stationScanCount(request: APIRequestContext, token: string, stationId: string) {
  const res = await request.get('/api/admin/stations', { headers: bearer(token) });
  const station = ((await res.json()).data as { id: string; scanCount: number }[]).find((s) => s.id === stationId);
  return station?.scanCount ?? -1;
}

export interface VerifiedRider {
  id: string;
  riderNumber: number;
  riderCode: string;
  token: string;
}

/**
 * `count` riders registered through the real sign-up (with a receipt) and approved through
 * the real verification route, each with a distinct free rider number and its rider code.
 */
export async function verifiedRiders(
  request: APIRequestContext,
  adminToken: string,
  count: number,
): Promise<VerifiedRider[]> {
  const taken = new Set<number>((await (await request.get('/api/rider-numbers/taken')).json()).data.takenNumbers);
  const numbers: number[] = [];
  for (let n = 1 + Math.floor(Math.random() * 500); numbers.length < count; n = (n % 999) + 1) {
    if (!taken.has(n)) numbers.push(n);
    taken.add(n);
  }
  const receipt = pngFixture(120, 160);
  const one = async (riderNumber: number): Promise<VerifiedRider> => {
    const rider = await registerRider(request, {
      firstName: 'Scan',
      lastName: `Rider${riderNumber}`,
      emailPrefix: 'scan',
      riderNumber,
      receipt,
    });
    const approved = await request.post('/api/admin/verifications/verify', {
      headers: bearer(adminToken),
      data: { verification_code: rider.user.verificationCode, action: 'verified' },
    });
    expect(approved.ok(), await approved.text()).toBeTruthy();
    const code = await request.get('/api/my/rider-code', { headers: bearer(rider.token) });
    expect(code.ok(), await code.text()).toBeTruthy();
    return { id: rider.user.id, riderNumber, riderCode: (await code.json()).data.riderCode, token: rider.token };
  };
  const riders: VerifiedRider[] = [];
  // A few at a time: registration hashes a password and re-encodes an image.
  for (let i = 0; i < numbers.length; i += 5) {
    riders.push(...(await Promise.all(numbers.slice(i, i + 5).map(one))));
  }
  return riders;
}

/**
 * A one-frame 4:2:0 .y4m of `text` as a QR code, which Chromium's fake camera loops
 * (recipes/camera-qr-in-chromium.md).
 */
export function qrY4m(text: string): string {
  const W = 640;
  const H = 480;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const scale = Math.floor(400 / (n + 2 * quiet));
  const side = (n + 2 * quiet) * scale;
  const x0 = (W - side) >> 1;
  const y0 = (H - side) >> 1;
  const Y = Buffer.alloc(W * H, 235);
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++)
      if (qr.modules.get(r, c))
        for (let dy = 0; dy < scale; dy++) {
          const o = (y0 + (r + quiet) * scale + dy) * W + x0 + (c + quiet) * scale;
          Y.fill(16, o, o + scale);
        }
  const UV = Buffer.alloc((W / 2) * (H / 2), 128);
  const dir = join(ROOT, '.tmp', 'e2e-camera');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `qr-${text.replace(/[^A-Za-z0-9-]/g, '_')}.y4m`);
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F30:1 Ip A1:1 C420jpeg\n`), Buffer.from('FRAME\n'), Y, UV, UV]),
  );
  return file;
}

/** Chromium whose camera shows `y4mPath` (fixed for the life of this browser). */
export function launchWithCamera(y4mPath: string): Promise<Browser> {
  return chromium.launch({
    executablePath: E2E_CHROMIUM_PATH,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${y4mPath}`,
    ],
  });
}

/** This device's queued scans, read from the page's IndexedDB (the shape the app stores). */
export function deviceScans(page: Page) {
  return page.evaluate(
    () =>
      new Promise<QueuedScan[]>((resolve, reject) => {
        const open = indexedDB.open('rally-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('scans').objectStore('scans').getAll();
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/** Opens /scan at `stationName` and waits until the cached roster holds every rider in `riderIds`. */
export async function openStation(page: Page, stationName: string, riderIds: string[]) {
  await page.goto('/scan');
  await page.getByRole('button', { name: new RegExp(stationName) }).click();
  await expect
    .poll(async () => {
      const held = new Set(await rosterIds(page));
      return riderIds.every((id) => held.has(id));
    })
    .toBe(true);
}

/** Ids of the riders the page holds in its cached roster. */
export function rosterIds(page: Page) {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('rally-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('roster').objectStore('roster').getAllKeys();
          get.onsuccess = () => resolve(get.result as string[]);
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/** Waits until the service worker controls the page (it claims clients once installed). */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 })
    .toBe(true);
}

/**
 * A marshal's phone losing signal at a station: signed in, the station open with these
 * riders in its cached roster, the service worker in control (so reloads work without the
 * network), then offline.
 */
export async function offlineAtStation(page: Page, marshal: Session, stationName: string, riders: { id: string }[]) {
  await signInWithToken(page, marshal.token, marshal.user);
  await openStation(
    page,
    stationName,
    riders.map((r) => r.id),
  );
  await waitForServiceWorker(page);
  await page.context().setOffline(true);
}

/** The wire form of queued scans, for replaying a device's batch over the API. */
export function wireScans(scans: Awaited<ReturnType<typeof deviceScans>>) {
  return scans.map((s) => ({
    id: s.id,
    stationId: s.stationId,
    ...(s.riderCode !== undefined ? { riderCode: s.riderCode } : { riderNumber: s.riderNumber }),
    scannedAt: s.scannedAt,
    deviceId: s.deviceId,
    source: s.source,
    ...(s.recordedBy ? { recordedBy: s.recordedBy } : {}),
  }));
}
