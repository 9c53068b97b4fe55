// Web Push on a rider's phone (issue 28): My Details' Notifications section turns push on
// for this browser (permission, the subscription with the server's key, stored on the
// account) and keeps the rider's channel choices; a message pushed to the app's service
// worker is shown as a notification with its title, text, tag and link. The push itself is
// handed to the worker by the DevTools protocol, as the browser's push service would.
import { createECDH, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { NOTIFICATION_CHANNEL_HINTS } from '@rally/shared/catalog/messages';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { auth, type Session, session } from './support/event-day';
import { expect, test } from './support/fixtures';
import { notifyingBrowser, serviceWorkerPush } from './support/push';

test.use({ viewport: { width: 360, height: 740 } });

async function openNotifications(page: Page, who: Session) {
  await signInWithToken(page, who.token, who.user);
  await page.goto('/me');
  const section = page.getByTestId('notification-settings');
  await expect(section.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  return section;
}

const settingsOf = async (page: Page, who: Session) =>
  (await (await page.request.get('/api/my/notification-settings', { headers: auth(who) })).json()).data;

test('a rider turns push on, and a pushed message shows as a notification with its link', async ({
  request,
  baseURL,
}) => {
  const origin = baseURL as string;
  const rider = await session(request, createUser('participant'));
  const { browser, page } = await notifyingBrowser(origin);
  try {
    const section = await openNotifications(page, rider);
    // The app's screens register the service worker; push needs it running.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    expect(await page.evaluate(() => Notification.permission)).toBe('granted');

    // A rider has no On call switch; the three channels start on.
    await expect(section.getByRole('switch')).toHaveCount(3);
    for (const name of ['Push', 'Email', 'SMS'])
      await expect(section.getByRole('switch', { name, exact: true })).toHaveAttribute('aria-checked', 'true');
    await expect(section.getByRole('switch', { name: 'On call' })).toHaveCount(0);
    await expect(section.getByText(NOTIFICATION_CHANNEL_HINTS.sms.replace(/^SMS:\s*/, ''))).toBeVisible();

    await section.getByRole('button', { name: 'Turn on push on this phone' }).click();
    // Headless Chromium has no push service to subscribe at: then the section says so plainly,
    // and the subscription a phone would make is stored through the API instead.
    const on = section.getByText('Push is on for this phone');
    const refused = section.getByTestId('push-problem');
    await expect(on.or(refused)).toBeVisible({ timeout: 30_000 });
    if (await refused.isVisible()) {
      await expect(refused).toContainText(/could not set up push|does not allow push/);
      const keys = createECDH('prime256v1');
      keys.generateKeys();
      const stored = await page.request.post('/api/my/push-subscriptions', {
        headers: auth(rider),
        data: {
          endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`,
          expirationTime: null,
          keys: { p256dh: keys.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
      });
      expect(stored.status(), await stored.text()).toBe(201);
    }
    await expect.poll(async () => (await settingsOf(page, rider)).pushDevices).toBe(1);

    // A choice is saved as it is switched.
    const sms = section.getByRole('switch', { name: 'SMS', exact: true });
    await sms.click();
    await expect(sms).toHaveAttribute('aria-checked', 'false');
    await expect.poll(async () => (await settingsOf(page, rider)).sms).toBe(false);
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
    if (process.env.E2E_SHOTS)
      await section.screenshot({ path: `${process.env.E2E_SHOTS}/notifications-360.png`, animations: 'disabled' });

    // The push service's delivery, through the DevTools protocol, to this origin's worker.
    const push = await serviceWorkerPush(page, origin);
    const message = {
      title: 'You are verified, warrior',
      body: 'Your rider pass and QR code are ready.',
      url: `${baseURL}/me`,
      tag: 'verification',
      urgent: false,
    };
    await push(JSON.stringify(message));
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          icon: n.icon,
          requireInteraction: n.requireInteraction,
          data: n.data,
        })),
      );
    await expect.poll(shown).toEqual([
      {
        title: message.title,
        body: message.body,
        tag: 'verification',
        icon: `${baseURL}/icons/icon-192.png`,
        requireInteraction: false,
        data: { url: `${baseURL}/me` },
      },
    ]);

    // An SOS for staff stays on screen; a link to another site is never kept.
    await push(
      JSON.stringify({
        title: 'SOS #42',
        body: 'Crash',
        url: 'https://evil.example/x',
        tag: 'incident-1',
        urgent: true,
      }),
    );
    await expect
      .poll(async () => (await shown()).find((n) => n.tag === 'incident-1'))
      .toMatchObject({ title: 'SOS #42', requireInteraction: true, data: { url: `${baseURL}/me` } });
  } finally {
    await browser.close();
  }
});

test('staff who handle incidents can go on call from the same section', async ({ page, request }) => {
  const marshall = await session(request, createUser('marshall'));
  const section = await openNotifications(page, marshall);
  const onCall = section.getByRole('switch', { name: 'On call' });
  await expect(onCall).toHaveAttribute('aria-checked', 'false');
  await expect(section.getByText(NOTIFICATION_CHANNEL_HINTS.onCall.replace(/^On call:\s*/, ''))).toBeVisible();
  await onCall.click();
  await expect(onCall).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await settingsOf(page, marshall)).onCall).toBe(true);
});
