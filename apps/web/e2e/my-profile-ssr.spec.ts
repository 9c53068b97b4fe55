// My Profile (/me) rendered by the server for the rider whose session cookie comes with the
// page request (apps/server/src/modules/profiles/my-profile-page.routes.ts). The client writes
// the cookie with the token it stores (a session stored before that gets it on the next start);
// the page then arrives drawn, and the client adopts it only while this device still holds
// that rider's session.
import type { BrowserContext, Page } from '@playwright/test';
import { SESSION_COOKIE } from '@rally/shared/catalog';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD } from './support/env';
import { type Session, session, verifiedRider } from './support/event-day';
import { expect, test } from './support/fixtures';
import { rememberServerNodes, waitForHydration, watchConsole } from './support/hydration';

let rider: Session;
let fullName: string;

test.beforeAll(async ({ request }) => {
  rider = await verifiedRider(request, await session(request, createUser('admin')));
  fullName = `${rider.user.firstName} ${rider.user.lastName}`;
});

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
}

/** A session stored before the cookie existed: the app's start writes the cookie. */
async function visitOnce(page: Page, as: Session = rider) {
  await signInWithToken(page, as.token, as.user);
  await page.context().clearCookies({ name: SESSION_COOKIE });
  await page.goto('/me');
  await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
  await expect.poll(async () => (await sessionCookie(page.context()))?.value).toBe(as.token);
}

/** The cookie alone (the page's scripts, which would keep the session beside it, are off). */
async function cookieOnly(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: SESSION_COOKIE, value: rider.token, url: baseURL ?? '' }]);
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the next visit arrives drawn, hydrates in place and answers', async ({ page }) => {
      await visitOnce(page);
      const problems = watchConsole(page);
      await rememberServerNodes(page, ['#root h1', '#root [role="tablist"]']);
      const response = await page.goto('/me');
      const html = (await response?.text()) ?? '';
      expect(html).toContain('>MY PROFILE</h1>');
      expect(html).toContain(fullName);
      expect(html).not.toContain('Authenticating warrior...');
      await waitForHydration(page);

      // Hydrated, so the tabs work: the pass shows the rider code.
      await page.getByRole('tab', { name: 'Rider Code' }).click();
      await expect(page.getByTestId('rider-code')).toBeVisible();
      await expectNoViolations(page);
      await expectNoSidewaysScroll(page);
      expect(problems).toEqual([]);
    });
  });
}

test('Logout takes the cookie away with the session, even offline', async ({ page, request }) => {
  // A session of its own: signing out must not end the one the other tests use.
  await visitOnce(page, await session(request, { email: rider.user.email, password: PASSWORD, role: 'participant' }));
  expect((await sessionCookie(page.context()))?.sameSite).toBe('Lax');
  await page.goto('/me');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeEnabled();
  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect.poll(async () => sessionCookie(page.context())).toBeUndefined();
  await page.context().setOffline(false);
  // The next person to open /me on this phone is asked to sign in, not shown the last rider.
  const response = await page.goto('/me');
  expect(await response?.text()).not.toContain(fullName);
  await page.waitForURL((url) => url.pathname === '/login');
});

test('a cookie without this device’s session (stored by an older client) is not adopted', async ({
  page,
  baseURL,
  request,
}) => {
  // A fresh session of the rider, so the shared one above is not signed out by what follows.
  const mine = await session(request, { email: rider.user.email, password: PASSWORD, role: 'participant' });
  await page.context().addCookies([{ name: SESSION_COOKIE, value: mine.token, url: baseURL ?? '' }]);
  const response = await page.goto('/me');
  // The server drew the page for the cookie; this device holds no session, so the client
  // draws afresh and its guard asks for a sign-in.
  expect(await response?.text()).toContain(fullName);
  await page.waitForURL((url) => url.pathname === '/login');
  await expect(page.getByText(fullName)).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the rider’s page is readable as the server sends it', async ({ page, baseURL }) => {
    await cookieOnly(page.context(), baseURL);
    await page.goto('/me');
    await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
    await expect(page.getByText(fullName).first()).toBeVisible();
  });
});
