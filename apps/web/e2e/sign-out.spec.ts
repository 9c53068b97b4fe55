// Signing out on a shared phone (issue 41): the account's push subscription for this browser
// goes, the session ends on the server even when the sign-out was made offline (once the
// phone is back online), and an unfinished /join entry is not left for the next person. A
// second session of the same account reads what the server keeps.
import { createECDH, randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { signInWithToken } from './support/api';
import { createUser } from './support/cli';
import { auth, type Session, session } from './support/event-day';
import { expect, test } from './support/fixtures';

test.use({ viewport: { width: 360, height: 740 } });

/** The drafts store's slots, read with the raw API (not the app's code); a missing database reads as none. */
function draftSlots(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('rally-registration');
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const keys = open.result.transaction('drafts').objectStore('drafts').getAllKeys();
          keys.onerror = () => reject(keys.error);
          keys.onsuccess = () => {
            open.result.close();
            resolve((keys.result as string[]).sort());
          };
        };
      }),
  );
}

/** A /join entry kept for the account, and a visitor's registration draft, as the forms keep them. */
function keepDrafts(page: Page, userId: string): Promise<void> {
  return page.evaluate(
    (slot) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('rally-registration', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('drafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('drafts', 'readwrite');
          const draft = {
            fields: { kitName: 'BAGWIS' },
            agreed: false,
            profileImage: null,
            receipt: null,
            savedAt: '',
          };
          tx.objectStore('drafts').put(draft, slot);
          tx.objectStore('drafts').put({ ...draft, fields: { firstName: 'Visitor' } }, 'current');
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    `join:${userId}`,
  );
}

/** Push on for this browser, stored as the Notifications section stores it (headless Chromium has no push service). */
async function subscribeBrowser(page: Page, who: Session) {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const stored = await page.request.post('/api/my/push-subscriptions', {
    headers: auth(who),
    data: {
      endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`,
      expirationTime: null,
      keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
    },
  });
  expect(stored.status(), await stored.text()).toBe(201);
}

const pushDevices = async (request: APIRequestContext, who: Session) =>
  (await (await request.get('/api/my/notification-settings', { headers: auth(who) })).json()).data.pushDevices;
const profileStatus = async (request: APIRequestContext, who: Session) =>
  (await request.get('/api/auth/profile', { headers: auth(who) })).status();

async function signOutFromMenu(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // The session ends as /me unmounts (my-profile-page.tsx), a moment after the URL changes.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
}

test('sign-out takes push off this browser and leaves no /join entry behind', async ({ page, request }) => {
  const account = createUser('participant');
  const phone = await session(request, account);
  const elsewhere = await session(request, account);
  await signInWithToken(page, phone.token, phone.user);
  await page.goto('/me');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeEnabled();
  await subscribeBrowser(page, phone);
  await keepDrafts(page, phone.user.id);
  expect(await pushDevices(request, elsewhere)).toBe(1);

  await signOutFromMenu(page);
  await expect.poll(() => profileStatus(request, phone)).toBe(401);
  expect(await pushDevices(request, elsewhere)).toBe(0);
  // The account's entry went; a visitor's unfinished registration is no sign-in's and stays.
  await expect.poll(() => draftSlots(page)).toEqual(['current']);
});

test('signed out offline, the session and its push end once the phone is back online', async ({ page, request }) => {
  const account = createUser('participant');
  const phone = await session(request, account);
  const elsewhere = await session(request, account);
  await signInWithToken(page, phone.token, phone.user);
  await page.goto('/me');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeEnabled();
  await subscribeBrowser(page, phone);

  await page.context().setOffline(true);
  await signOutFromMenu(page);
  // The server heard nothing yet: the session and this browser's subscription live on there.
  expect(await profileStatus(request, phone)).toBe(200);
  expect(await pushDevices(request, elsewhere)).toBe(1);

  await page.context().setOffline(false);
  await expect.poll(() => profileStatus(request, phone)).toBe(401);
  expect(await pushDevices(request, elsewhere)).toBe(0);
  // Told: nothing is left pending on the phone.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('rally.pendingSignOuts'))).toBeNull();
});
