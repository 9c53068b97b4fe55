// The scanner's offline photos and the public_photo consent (issue 43, DESIGN.md §12): a rider
// who withdrew their public photo is hidden from strangers, yet the marshal's phone still
// caches it (it fetches with the marshal's session), so the staff who scan them see who they are.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createUser } from './support/cli';
import { addStation, auth, session, verifiedRider } from './support/event-day';
import { expect, test } from './support/fixtures';
import { uniqueImageFixture } from './support/images';
import { rosterIds } from './support/scanner';

// As on the marshal's phone: the scanner runs under its service worker.
test.use({ serviceWorkers: 'allow' });

interface HeldPhoto {
  riderId: string;
  url: string;
  size: number;
  type: string;
}

/** The photos the page holds offline, read from its IndexedDB as lib/offline/offline-db.ts stores them. */
function heldPhotos(page: Page) {
  return page.evaluate(
    () =>
      new Promise<HeldPhoto[]>((resolve, reject) => {
        const open = indexedDB.open('rally-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('photos').objectStore('photos').getAll();
          get.onsuccess = () =>
            resolve(
              (get.result as { riderId: string; url: string; blob: Blob }[]).map((p) => ({
                riderId: p.riderId,
                url: p.url,
                size: p.blob.size,
                type: p.blob.type,
              })),
            );
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

test('a rider who withdrew public_photo is hidden from strangers but still cached on the marshal’s scanner', async ({
  page,
  request,
  playwright,
  baseURL,
}) => {
  const admin = await session(request, createUser('admin'));
  const marshal = createUser('marshall');
  const rider = await verifiedRider(request, admin);
  const uploaded = await request.post('/api/upload/profile-image', {
    headers: auth(rider),
    multipart: { profileImage: { name: 'me.png', mimeType: 'image/png', buffer: uniqueImageFixture() } },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);

  // A context with no session at all: the stranger on the internet.
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    const photoPath = `/api/public/profile-image/${rider.user.id}`;
    expect((await anonymous.get(photoPath)).status()).toBe(200);

    const withdrawn = await request.put('/api/my/consents/public_photo', {
      headers: auth(rider),
      data: { given: false },
    });
    expect(withdrawn.ok(), await withdrawn.text()).toBeTruthy();

    expect((await anonymous.get(photoPath)).status()).toBe(404);
    expect((await anonymous.get(`${photoPath}?size=thumb`)).status()).toBe(404);
    // Still served to the rider and to staff.
    expect((await anonymous.get(photoPath, { headers: auth(rider) })).status()).toBe(200);
    expect((await anonymous.get(photoPath, { headers: auth(await session(request, marshal)) })).status()).toBe(200);
  } finally {
    await anonymous.dispose();
  }

  const station = await addStation(request, admin, {
    name: `Photo CP ${randomUUID().slice(0, 6)}`,
    kind: 'checkpoint',
    day: 1,
  });
  await page.goto('/scan');
  await page.getByLabel('Email').fill(marshal.email);
  await page.getByLabel('Password', { exact: true }).fill(marshal.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: new RegExp(station.name) }).click();
  await expect(page.getByTestId('station-name')).toHaveText(station.name);
  await expect.poll(async () => (await rosterIds(page)).includes(rider.user.id)).toBe(true);

  // The photos are fetched in the background after the roster lands.
  await expect
    .poll(async () => (await heldPhotos(page)).find((p) => p.riderId === rider.user.id)?.size ?? 0, {
      message: 'the withdrawn rider’s photo is cached for offline scanning',
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  const held = (await heldPhotos(page)).find((p) => p.riderId === rider.user.id);
  expect(held?.url).toContain(`/api/public/profile-image/${rider.user.id}?size=thumb`);
  expect(held?.type).toMatch(/^image\//);
});
