// Messages (issue 28), against a server of this spec's own whose email goes to a real SMTP
// server and whose pushes go to a real local push service (both in this process): a refused
// email shows as failed in the delivery log and goes out once resent; the push an on-call
// marshal gets for a new SOS is shown by the console's service worker, and its link opens that
// incident on the board with the messages it caused; family follow a rider by email from the
// public profile, confirm by the emailed link, hear of a passage, and the rider removes them.
import { randomUUID } from 'node:crypto';
import { type PushService, startPushService } from '../../server/src/test/push-service';
import { type SmtpSink, startSmtpSink } from '../../server/src/test/smtp-sink';
import { registerRider, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { uniqueEmail } from './support/env';
import { addStation, auth, scan, session, verifiedRider } from './support/event-day';
import { test as base, expect, toast } from './support/fixtures';
import { notifyingBrowser, serviceWorkerPush } from './support/push';
import { startWorkerServer, type WorkerServer } from './support/servers';

/** Mailboxes that are full for now: the mail server refuses them with a 550. */
const FULL = 'mailbox-full';
let refusing = true;
let parts: { sink: SmtpSink; pushService: PushService; server: WorkerServer } | undefined;

/**
 * This spec's server, made when its first test starts (a fixture: the page and the request
 * fixtures need its address before any hook would run) and stopped after its last. The
 * operator commands (createUser) go to it while a test of this spec runs.
 */
const test = base.extend<{ own: NonNullable<typeof parts> }>({
  own: async ({ database }, use, info) => {
    if (!parts) {
      const sink = await startSmtpSink({
        refuseRecipient: (address) =>
          refusing && address.startsWith(FULL) ? [550, `<${address}>: Mailbox full`] : null,
      });
      const pushService = await startPushService();
      const server = await startWorkerServer(database, 200 + info.workerIndex, {
        SMTP_URL: sink.url,
        MAIL_FROM: 'rally@example.test',
        PUSH_ENDPOINT_HOSTS: pushService.host,
      });
      parts = { sink, pushService, server };
    }
    const workerDataDir = process.env.E2E_DATA_DIR;
    process.env.E2E_DATA_DIR = parts.server.dataDir;
    try {
      await use(parts);
    } finally {
      process.env.E2E_DATA_DIR = workerDataDir;
    }
  },
  baseURL: async ({ own }, use) => use(own.server.url),
});
test.afterAll(async () => {
  await parts?.server.stop();
  await parts?.sink.close();
  await parts?.pushService.close();
  parts = undefined;
});

test('a refused email shows as failed in the delivery log and goes out once resent', async ({ page, request, own }) => {
  const { sink } = own;
  const admin = await session(request, createUser('admin'));
  const rider = await registerRider(request, { emailPrefix: FULL });
  const failedRow = async () => {
    const res = await request.get('/api/admin/messages?status=failed&channel=email&limit=100', {
      headers: auth(admin),
    });
    return ((await res.json()).data.messages as Array<{ id: string; recipient: string }>).find(
      (m) => m.recipient === rider.email,
    );
  };
  await expect.poll(failedRow, { timeout: 20_000 }).toBeTruthy();
  const id = (await failedRow())?.id as string;

  await page.setViewportSize({ width: 360, height: 800 });
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=settings');
  // The email channel is on, and says the last hour's refusal.
  const email = page.getByTestId('channel-email');
  await expect(email).toContainText('On');
  await expect(email).toContainText('Mailbox full');
  const row = page.getByTestId('delivery-row').filter({ hasText: rider.email });
  await expect(row).toContainText('Registration received');
  await expect(row).toContainText('Failed');
  await expect(row).toContainText('Mailbox full');
  if (process.env.E2E_SHOTS) await row.screenshot({ path: `${process.env.E2E_SHOTS}/delivery-row-failed-360.png` });
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);

  // The rider emptied the mailbox: one press sends it, once.
  refusing = false;
  await row.getByTestId('delivery-resend').click();
  await expect(toast(page, 'Queued again: it goes out now')).toBeVisible();
  await expect(row).toContainText('Sent', { timeout: 20_000 });
  await expect(row.getByTestId('delivery-resend')).toHaveCount(0);
  if (process.env.E2E_SHOTS) await row.screenshot({ path: `${process.env.E2E_SHOTS}/delivery-row-360.png` });
  const arrived = sink.messages.filter((m) => m.envelope.to.includes(rider.email));
  expect(arrived).toHaveLength(1);
  expect(arrived[0]?.header('message-id')).toContain(id);
});

test("a new SOS's push opens that incident on the board, with the messages it caused", async ({
  request,
  baseURL,
  own,
}) => {
  const { sink, pushService } = own;
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await verifiedRider(request, admin);
  // The marshal is on call, with one browser subscribed at the local push service.
  const onCall = await request.patch('/api/my/notification-settings', {
    headers: auth(marshal),
    data: { onCall: true },
  });
  expect(onCall.ok(), await onCall.text()).toBeTruthy();
  const subscription = pushService.subscribe();
  const stored = await request.post('/api/my/push-subscriptions', { headers: auth(marshal), data: subscription });
  expect(stored.status(), await stored.text()).toBe(201);
  const subscriptionId = subscription.endpoint.split('/').at(-1);

  const id = randomUUID();
  const sos = await request.post('/api/my/sos', {
    headers: auth(rider),
    data: { id, kind: 'crash', note: 'Slid on the wet bridge' },
  });
  expect(sos.status(), await sos.text()).toBe(201);
  const pushed = () =>
    pushService.delivered.find((d) => d.subscriptionId === subscriptionId && d.text.includes(`incident-${id}`));
  await expect.poll(pushed, { timeout: 20_000 }).toBeTruthy();
  const payload = pushed()?.text as string;

  // The marshal's phone: the full Chromium shows notifications (the e2e shell does not).
  const { browser, page } = await notifyingBrowser(baseURL as string, { width: 360, height: 800 });
  try {
    await signInWithToken(page, marshal.token, marshal.user);
    await page.goto('/admin?tab=dashboard');
    // The push service hands the same payload, decrypted above as the browser would, to the worker.
    const push = await serviceWorkerPush(page, baseURL as string);
    await push(payload);
    const notification = () =>
      page.evaluate(async (tag) => {
        const shown = await (await navigator.serviceWorker.ready).getNotifications({ tag });
        return shown.map((n) => ({ title: n.title, body: n.body, url: n.data?.url as string }))[0];
      }, `incident-${id}`);
    // The service worker wakes for the push and shows it: on a loaded machine, seconds.
    await expect.poll(notification, { timeout: 20_000 }).toMatchObject({
      title: expect.stringContaining(`#${rider.user.riderNumber}`),
      body: expect.stringContaining('Slid on the wet bridge'),
      url: `${baseURL}/admin?tab=event-day&incident=${id}`,
    });

    // A tap takes the console to the notification's link (sw-push.js: the same page, navigated).
    await page.goto((await notification())?.url as string);
    const opened = page.getByTestId('opened-incident');
    await expect(opened).toBeFocused();
    const card = opened.locator(`[data-incident="${id}"]`);
    await expect(card).toContainText('Crash');
    const steps = card.getByTestId('incident-messages');
    await expect(steps).toHaveAttribute('open', '');
    await expect(steps.getByTestId('incident-message').filter({ hasText: 'New incident alert' })).toContainText(
      `Push to Test marshall, push: ${pushService.host}`,
    );
    await expect(steps.getByTestId('incident-message').filter({ hasText: 'New incident alert' })).toContainText('Sent');
    // The card is on top and nowhere else on the board.
    await expect(page.locator(`[data-incident="${id}"]`)).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
    if (process.env.E2E_SHOTS) await opened.screenshot({ path: `${process.env.E2E_SHOTS}/opened-incident-360.png` });

    // Acknowledged from there: the rider's email joins the timeline, and is sent.
    await card.getByTestId('incident-acknowledge').click();
    await expect(card).toHaveAttribute('data-status', 'acknowledged');
    const answer = steps.getByTestId('incident-message').filter({ hasText: 'SOS answered (to the rider)' });
    await expect(answer).toContainText('Email to Pending Rider');
    await expect(answer).toContainText('Sent', { timeout: 20_000 });
    if (process.env.E2E_SHOTS) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await opened.screenshot({ path: `${process.env.E2E_SHOTS}/opened-incident-desktop.png` });
      await page.setViewportSize({ width: 360, height: 800 });
    }
    await expect.poll(() => sink.messages.some((m) => m.envelope.to.includes(rider.user.email ?? ''))).toBe(true);

    await opened.getByRole('button', { name: 'Back to all incidents' }).click();
    await expect(page).not.toHaveURL(/incident=/);
    await expect(page.getByTestId('opened-incident')).toHaveCount(0);
    await expect(page.locator(`[data-incident="${id}"]`)).toHaveCount(1);
  } finally {
    await browser.close();
  }
});

test('family follow a rider by email, hear of a passage, and the rider removes them', async ({
  page,
  request,
  own,
}) => {
  const { sink } = own;
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await verifiedRider(request, admin);
  const station = await addStation(request, admin, {
    name: `Dalwangan ${randomUUID().slice(0, 6)}`,
    kind: 'checkpoint',
  });
  const fan = uniqueEmail('fan');
  const mailsTo = (address: string) => sink.messages.filter((m) => m.envelope.to.includes(address));
  const confirmLink = (address: string, index = 0) =>
    /https?:\/\/\S+\/follow\/confirm\?token=[\w.-]+/.exec(mailsTo(address)[index]?.text ?? '')?.[0];
  await page.setViewportSize({ width: 360, height: 800 });

  // One family member follows through the API and stays.
  const stays = uniqueEmail('kin');
  expect((await request.post(`/api/follow/${rider.user.id}`, { data: { email: stays } })).status()).toBe(202);
  await expect.poll(() => mailsTo(stays).length, { timeout: 20_000 }).toBe(1);
  const staysToken = new URL(confirmLink(stays) as string).searchParams.get('token');
  expect((await request.post('/api/follow/confirm', { data: { token: staysToken } })).ok()).toBe(true);

  // The rider's pass links to the follow form, to share with family.
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await page.getByRole('tab', { name: 'Rider Code' }).click();
  const link = page.getByTestId('pass-follow-link');
  await expect(link).toHaveAttribute('href', `/user/${rider.user.id}#follow`);

  // Family, signed out, open it: the form is open at once.
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await page.goto(`/user/${rider.user.id}#follow`);
  const dialog = page.getByRole('dialog', { name: /^Follow / });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Your email').fill('not-an-address');
  await dialog.getByRole('button', { name: 'Follow by email' }).click();
  await expect(dialog).toContainText('Enter an email address like name@example.com.');
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/follow-dialog-360.png` });
  await dialog.getByLabel('Your email').fill(fan);
  await dialog.getByRole('button', { name: 'Follow by email' }).click();
  await expect(dialog.getByTestId('follow-done')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);

  // Nothing but the confirmation before the link is opened; the link confirms.
  await expect.poll(() => mailsTo(fan).length, { timeout: 20_000 }).toBe(1);
  const confirmUrl = confirmLink(fan);
  expect(confirmUrl, mailsTo(fan)[0]?.text ?? '').toBeTruthy();
  await page.goto(confirmUrl as string);
  await expect(page.getByTestId('follow-confirmed')).toContainText('You are now following');

  // A passage reaches the follower, without a position.
  expect((await scan(request, marshal, station.id, { riderCode: rider.user.riderCode ?? '' })).status).toBe('accepted');
  await expect.poll(() => mailsTo(fan).length, { timeout: 20_000 }).toBe(2);
  expect(mailsTo(fan)[1]?.text).toContain(`passed ${station.name}`);
  await expect.poll(() => mailsTo(stays).length, { timeout: 20_000 }).toBe(2);

  // The rider sees the follower (masked) in My Details and removes them.
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  const followers = page.getByTestId('followers-list');
  await expect(followers.getByRole('listitem')).toHaveCount(2);
  if (process.env.E2E_SHOTS) await followers.screenshot({ path: `${process.env.E2E_SHOTS}/followers-360.png` });
  await followers
    .getByRole('listitem')
    .filter({ hasText: `${fan[0]}***@` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await page.getByRole('dialog', { name: 'Remove follower?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'Follower removed')).toBeVisible();
  await expect(followers.getByRole('listitem')).toHaveCount(1);
  await expect(followers).toContainText(`${stays[0]}***@`);

  // Removed means nothing more for them; the family member who stays hears the next passage.
  const second = await addStation(request, admin, {
    name: `Impasugong ${randomUUID().slice(0, 6)}`,
    kind: 'checkpoint',
  });
  expect((await scan(request, marshal, second.id, { riderCode: rider.user.riderCode ?? '' })).status).toBe('accepted');
  await expect.poll(() => mailsTo(stays).length, { timeout: 20_000 }).toBe(3);
  expect(mailsTo(stays)[2]?.text).toContain(`passed ${second.name}`);
  expect(mailsTo(fan)).toHaveLength(2);
});
