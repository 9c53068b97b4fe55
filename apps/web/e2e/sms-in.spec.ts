// Issue 41: an SOS texted from a rider's registered number is opened at once, but a sender's
// number can be forged: the Event Day board says so on its card. Against a server of this
// spec's own that takes the SMS phone's signed webhook (SMS_WEBHOOK_KEY).
import { signedInboundText } from '../../server/src/test/sms-gateway-sim';
import { registerRider, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { auth, session } from './support/event-day';
import { test as base, expect } from './support/fixtures';
import { startWorkerServer, type WorkerServer } from './support/servers';

const KEY = 'e2e-sms-webhook-key-0123456789abcdef';
let server: WorkerServer | undefined;

/** This spec's server, made when its first test starts and stopped after its last. */
const test = base.extend<{ own: WorkerServer }>({
  own: async ({ database }, use, info) => {
    server ??= await startWorkerServer(database, 300 + info.workerIndex, { SMS_WEBHOOK_KEY: KEY });
    const workerDataDir = process.env.E2E_DATA_DIR;
    process.env.E2E_DATA_DIR = server.dataDir;
    try {
      await use(server);
    } finally {
      process.env.E2E_DATA_DIR = workerDataDir;
    }
  },
  baseURL: async ({ own }, use) => use(own.url),
});
test.afterAll(async () => {
  await server?.stop();
  server = undefined;
});

test('an SOS by text shows on the board as from a sender nobody verified', async ({ page, request }, info) => {
  const admin = await session(request, createUser('admin'));
  const rider = await registerRider(request);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: auth(admin),
    data: { verification_code: rider.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();
  const number = rider.user.riderNumber as number;

  // The organiser's phone forwards the text it got from the rider's registered number.
  const signed = signedInboundText(KEY, { message: `SOS ${number} lost near the river`, phoneNumber: '+639171234567' });
  const texted = await request.post('/api/sms/inbound', { headers: signed.headers, data: signed.body });
  expect(texted.status(), await texted.text()).toBe(200);
  expect((await texted.json()).data.outcome).toBe('sos');

  for (const viewport of [
    { width: 360, height: 800 },
    { width: 1280, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    await signInWithToken(page, admin.token, admin.user);
    await page.goto('/admin?tab=event-day');
    const card = page.getByTestId('incident-card').filter({ hasText: `#${number}` });
    await expect(card).toContainText('lost near the river', { timeout: 20_000 });
    await expect(card.getByTestId('incident-unverified')).toHaveText('by text — sender not verified: call back');
    // Marking it as abuse would mute the real rider for a forger's text: not offered.
    await expect(card.getByRole('button', { name: /abuse/i })).toHaveCount(0);
    await card.screenshot({ path: info.outputPath(`sms-sos-card-${viewport.width}.png`) });
    await expectNoSidewaysScroll(page);
  }
  await expectNoViolations(page);
});
