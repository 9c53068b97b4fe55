// My Profile (/me) rendered by the server for the rider whose page cookie comes with the
// page request (apps/server/src/modules/profiles/my-profile-page.routes.ts). The server sets
// the cookie (HttpOnly, bound to the session; apps/server/src/lib/session-cookie.ts) with a
// sign-in and with the session check every app start makes, so a session stored before it
// gets it on the next start; the page then arrives drawn, and the client adopts it only while
// this device still holds that rider's session.
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { SESSION_COOKIE, SESSION_MARK_COOKIE } from '@rally/shared/catalog/web-client';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD } from './support/env';
import { auth, type Session, session, verifiedRider } from './support/event-day';
import { expect, test } from './support/fixtures';
import { rememberServerNodes, waitForHydration, watchConsole } from './support/hydration';

let rider: Session;
let fullName: string;

test.beforeAll(async ({ request }) => {
  rider = await verifiedRider(request, await session(request, createUser('admin')));
  fullName = `${rider.user.firstName} ${rider.user.lastName}`;
});

async function pageCookies(context: BrowserContext) {
  const all = await context.cookies();
  return {
    credential: all.find((c) => c.name === SESSION_COOKIE && c.path === '/me'),
    mark: all.find((c) => c.name === SESSION_MARK_COOKIE && c.path === '/me'),
  };
}

/** A session stored before the page cookie existed: the app's start (its session check) gets it. */
async function visitOnce(page: Page, as: Session = rider) {
  await signInWithToken(page, as.token, as.user);
  await page.context().clearCookies({ name: SESSION_COOKIE });
  await page.goto('/me');
  await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
  await expect.poll(async () => (await pageCookies(page.context())).credential?.httpOnly).toBe(true);
}

/**
 * The page cookies of a session, put in the browser without the app (its scripts, which would
 * keep the session beside them, do not run): as the session check answers them.
 */
async function cookiesOnly(
  context: BrowserContext,
  request: APIRequestContext,
  baseURL: string | undefined,
  as: Session,
) {
  const res = await request.get('/api/auth/profile', { headers: auth(as) });
  expect(res.ok()).toBe(true);
  const cookies = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie' && /;\s*Path=\/me(;|$)/i.test(h.value))
    .map((h) => {
      const [pair = ''] = h.value.split(';');
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
  expect(cookies.map((c) => c.name).sort()).toEqual([SESSION_COOKIE, SESSION_MARK_COOKIE]);
  const domain = new URL(baseURL ?? '').hostname;
  await context.addCookies(
    cookies.map((c) => ({ ...c, domain, path: '/me', httpOnly: c.name === SESSION_COOKIE, sameSite: 'Lax' as const })),
  );
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

test('the cookie is the server’s: HttpOnly, for /me only, not the token, and signing out clears it', async ({
  page,
  request,
}) => {
  // A session of its own: signing out must not end the one the other tests use.
  const mine = await session(request, { email: rider.user.email, password: PASSWORD, role: 'participant' });
  await visitOnce(page, mine);
  const { credential, mark } = await pageCookies(page.context());
  expect(credential).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/me' });
  expect(credential?.value).not.toContain(mine.token);
  expect(mark).toMatchObject({ httpOnly: false, sameSite: 'Lax', path: '/me' });
  // No page script can see it; API requests do not carry it.
  expect(await page.evaluate(() => document.cookie)).not.toContain(`${credential?.value}`);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeEnabled();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // The server cleared it with the session (a script could not).
  await expect.poll(async () => (await pageCookies(page.context())).credential).toBeUndefined();
  const response = await page.goto('/me');
  expect(await response?.text()).not.toContain(fullName);
  await page.waitForURL((url) => url.pathname === '/login');
});

test('Logout offline: the next person to open /me is not shown the last rider', async ({ page, request }) => {
  await visitOnce(page, await session(request, { email: rider.user.email, password: PASSWORD, role: 'participant' }));
  await page.goto('/me');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeEnabled();
  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  // The server heard nothing; the client took the cookie's mark away, which it can, at once.
  await expect.poll(async () => (await pageCookies(page.context())).mark).toBeUndefined();
  await page.context().setOffline(false);
  const response = await page.goto('/me');
  expect(await response?.text()).not.toContain(fullName);
  await page.waitForURL((url) => url.pathname === '/login');
  // A credential without its mark draws nothing, and that answer removed it.
  expect((await pageCookies(page.context())).credential).toBeUndefined();
});

test('a cookie without this device’s session (stored by an older client) is not adopted', async ({
  page,
  baseURL,
  request,
}) => {
  // A fresh session of the rider, so the shared one above is not signed out by what follows.
  const mine = await session(request, { email: rider.user.email, password: PASSWORD, role: 'participant' });
  await cookiesOnly(page.context(), request, baseURL, mine);
  const response = await page.goto('/me');
  // The server drew the page for the cookie; this device holds no session, so the client
  // draws afresh and its guard asks for a sign-in.
  expect(await response?.text()).toContain(fullName);
  await page.waitForURL((url) => url.pathname === '/login');
  await expect(page.getByText(fullName)).toHaveCount(0);
});

test('staff get no cookie: their page is never drawn by the server', async ({ page, request }) => {
  const marshall = await session(request, createUser('marshall'));
  await signInWithToken(page, marshall.token, marshall.user);
  const checked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/profile');
  await page.goto('/me');
  expect((await checked).ok()).toBe(true);
  // The session check answered, and set nothing, for any path.
  const names = (await page.context().cookies()).map((c) => c.name);
  expect(names).not.toContain(SESSION_COOKIE);
  expect(names).not.toContain(SESSION_MARK_COOKIE);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the rider’s page is readable as the server sends it', async ({ page, baseURL, request }) => {
    await cookiesOnly(page.context(), request, baseURL, rider);
    await page.goto('/me');
    await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
    await expect(page.getByText(fullName).first()).toBeVisible();
  });
});
