// Consent on record (DESIGN.md §12, issue 43): an organiser publishes a new version of the
// privacy notice in the console; a rider who accepted the previous one signs in and is asked
// again first thing on their screen, accepts, and carries on in My Profile; in its privacy section they
// withdraw their public profile, and a visitor then finds no such warrior. Publishing a
// notice asks every account of the server again, so this spec has a server of its own.
import type { Page } from '@playwright/test';
import { bearer, logIn } from './support/api';
import { expectNoSidewaysScroll } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD } from './support/env';
import { auth, session, verifiedRider } from './support/event-day';
import { expect, toast } from './support/fixtures';
import { testOnOwnServer } from './support/own-server';

const test = testOnOwnServer(610);

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

const FIRST_PRIVACY =
  '# Privacy Notice\n\nWe keep what we need to run the rally, and no more.\n\n- Your name\n- Your number';
const FIRST_TERMS = '# Terms\n\nRide safely and follow the marshals. **Helmets on** at all times.';

test('a new notice is asked for at sign-in; a withdrawn public profile is gone at once', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await session(request, createUser('admin'));
  // The version riders have accepted so far, published and accepted by the API.
  const first = await request.put('/api/admin/privacy/notice', {
    headers: auth(admin),
    data: { privacyText: FIRST_PRIVACY, termsText: FIRST_TERMS },
  });
  expect(first.ok(), await first.text()).toBeTruthy();
  const v1 = (await (await request.get('/api/privacy/notice')).json()).data.version as number;
  const rider = await verifiedRider(request, admin);
  for (const who of [admin, rider]) {
    const accepted = await request.put('/api/my/consents/notice', { headers: auth(who), data: { version: v1 } });
    expect(accepted.ok(), await accepted.text()).toBeTruthy();
  }
  const riderId = rider.user.id;
  const publicPage = await request.get(`/api/users/${riderId}/profile`);
  expect(publicPage.ok(), 'the public profile shows by default').toBeTruthy();

  // The organiser writes the next version in the console and publishes it.
  await logIn(page, admin.user.email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto('/admin?tab=privacy');
  const editor = page.getByTestId('notice-editor');
  await expect(editor.getByTestId('notice-current')).toContainText(`version ${v1}`);
  const privacyField = editor.getByLabel('Privacy notice (Markdown)');
  await expect(privacyField).toHaveValue(FIRST_PRIVACY);
  await privacyField.fill(
    `${FIRST_PRIVACY}\n\n## Live tracking\n\nWith your consent, the **safety team** sees where you ride.`,
  );
  await editor.getByRole('button', { name: 'Preview' }).click();
  await expect(editor.getByRole('heading', { name: 'Live tracking' })).toBeVisible();
  await shot(page, 'notice-editor');
  await editor.getByRole('button', { name: `Publish version ${v1 + 1}` }).click();
  const confirm = page.getByRole('dialog', { name: `Publish version ${v1 + 1}?` });
  await expect(confirm).toContainText('Every rider will be asked to accept it at their next sign-in');
  await confirm.getByRole('button', { name: `Publish version ${v1 + 1}` }).click();
  await expect(toast(page, `Version ${v1 + 1} is published.`)).toBeVisible();
  const current = (await (await request.get('/api/privacy/notice')).json()).data;
  expect(current.version).toBe(v1 + 1);

  // The rider signs in (on a phone) and is asked before anything else.
  const phone = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, isMobile: true });
  const riderPage = await phone.newPage();
  await logIn(riderPage, rider.user.email, PASSWORD);
  // First on the screen, above My Profile, which stays usable (the pass and SOS are never behind it).
  const gate = riderPage.getByRole('region', { name: 'Our privacy notice changed' });
  await expect(gate).toBeVisible();
  await expect(riderPage.getByRole('tab', { name: 'Rider Code' })).toBeVisible();
  await gate.getByRole('button', { name: 'Read the notice' }).click();
  await expect(gate).toContainText(`You accepted version ${v1}`);
  await expect(gate.getByRole('heading', { name: 'Live tracking' })).toBeVisible();
  await shot(riderPage, 'consent-gate');
  await gate.getByRole('button', { name: 'Accept the notice' }).click();
  await expect(gate).toBeHidden();
  await expect(riderPage).toHaveURL(/\/(profile|me)$/);
  const consents = await request.get('/api/my/consents', { headers: bearer(rider.token) });
  expect((await consents.json()).data.notice).toMatchObject({
    needed: false,
    accepted: { version: v1 + 1, screen: 'sign-in' },
  });

  // My Profile, privacy section: the version accepted, and the public profile withdrawn.
  // The privacy section is below My Details, the tab My Profile opens on.
  const card = riderPage.getByTestId('consents-card');
  await expect(card.getByTestId('notice-accepted')).toContainText(`version ${v1 + 1}`);
  await expect(card.getByRole('link', { name: `Read version ${v1 + 1}` })).toHaveAttribute(
    'href',
    `/privacy?version=${v1 + 1}`,
  );
  const publicSwitch = card.getByRole('switch', { name: 'Public profile' });
  await expect(publicSwitch).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByTestId('consent-public_profile')).toContainText('default');
  await expectNoSidewaysScroll(riderPage);
  await shot(riderPage, 'privacy-tab');
  await publicSwitch.click();
  await expect(toast(riderPage, 'Public profile: off.')).toBeVisible();
  await expect(publicSwitch).toHaveAttribute('aria-checked', 'false');
  await card.getByText(/^History/).click();
  await expect(card.getByTestId('consent-history')).toContainText('Withdrawn Public profile in My Profile');

  // A visitor, signed out, finds no such warrior.
  const visitor = await browser.newContext({ baseURL });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/user/${riderId}`);
  await expect(visitorPage.getByRole('heading', { name: 'Warrior Not Found' })).toBeVisible();

  // The version the rider accepted before reads as not the current one.
  await visitorPage.goto(`/privacy?version=${v1}`);
  await expect(visitorPage.getByTestId('old-notice')).toContainText(`This is version ${v1}`);
  await expect(visitorPage.getByTestId('notice-version')).toContainText(`Version ${v1}`);
});
