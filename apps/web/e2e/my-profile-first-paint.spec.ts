// My Profile on mobile data (issue 18): the page is drawn from the session stored on the
// phone at once, while the server checks that session behind it. What the check decides
// still holds: a refused session signs out (to /login, quietly), a sign-out made meanwhile
// is not undone by its answer, and no answer at all keeps the session and opens the pass.
import type { Page, Route } from '@playwright/test';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { type Session, session, verifiedRider } from './support/event-day';
import { expect, test, toast } from './support/fixtures';

/**
 * Holds every session check (GET /api/auth/profile) until `release()`: the page must show
 * without it. `asked` counts the checks the page made.
 */
async function holdSessionCheck(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const state = { asked: 0, release: () => release() };
  await page.route('**/api/auth/profile', async (route: Route) => {
    state.asked++;
    await released;
    await route.continue();
  });
  return state;
}

async function storeSession(page: Page, rider: Session) {
  await signInWithToken(page, rider.token, rider.user);
}

const heading = (page: Page) => page.getByRole('heading', { name: 'MY PROFILE' });
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('authToken'));

test('My Profile draws from the stored session before the session check answers', async ({ page, request }) => {
  const rider = await session(request, createUser('participant'));
  await storeSession(page, rider);
  const check = await holdSessionCheck(page);

  await page.goto('/me');
  await expect(heading(page)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your warrior card' })).toContainText(
    `${rider.user.firstName} ${rider.user.lastName}`,
  );
  await expect(page.getByTestId('sos-panel')).toContainText('In trouble on the road? Tell the marshals.');
  await expect(page.getByRole('tab', { name: 'My Details', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Authenticating warrior...')).toHaveCount(0);
  // Drawn while the one check asked is still unanswered.
  expect(check.asked).toBe(1);

  const answered = page.waitForResponse('**/api/auth/profile');
  check.release();
  await answered;
  await page.waitForLoadState('networkidle');
  // Confirmed, the page stays; the check's answer is its fresh copy, not asked for twice.
  expect(check.asked).toBe(1);
  await expect(heading(page)).toBeVisible();
  await expect(page).toHaveURL(/\/me$/);
  expect(await storedToken(page)).toBe(rider.token);
});

test('a stored session the server refuses still signs out, to /login, without an error toast', async ({
  page,
  request,
}) => {
  const rider = await session(request, createUser('participant'));
  // The session is revoked on the server; this phone still holds it.
  const revoked = await request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${rider.token}` } });
  expect(revoked.ok()).toBeTruthy();
  await storeSession(page, rider);
  const check = await holdSessionCheck(page);

  await page.goto('/me');
  await expect(heading(page)).toBeVisible();
  check.release();
  await page.waitForURL('**/login');
  await expect(page.getByRole('button', { name: 'ENTER THE REALM' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
  await expect(toast(page, 'Failed to load profile data')).toHaveCount(0);
  await expect(page.getByText('Profile Load Failed')).toHaveCount(0);
});

test('signing out before the session check answers stays signed out', async ({ page, request }) => {
  const rider = await session(request, createUser('participant'));
  await storeSession(page, rider);
  const check = await holdSessionCheck(page);

  await page.goto('/me');
  await expect(heading(page)).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect.poll(() => storedToken(page)).toBeNull();

  // The check's answer (for the token signed out) arrives now: it must not restore anything.
  const answered = page.waitForResponse('**/api/auth/profile');
  check.release();
  await answered;
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('userData'))).toBeNull();
});

test('no answer to the session check keeps the session and opens on the pass', async ({ page, request }) => {
  const rider = await verifiedRider(request, await session(request, createUser('admin')));
  await storeSession(page, rider);
  // The browser believes it is online, but the check never reaches the server (one bar, a
  // dead gateway): as on an offline start, the rider most likely needs the pass.
  await page.route('**/api/auth/profile', (route) => route.abort('internetdisconnected'));

  await page.goto('/me');
  await expect(page.getByRole('tab', { name: 'Rider Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('rider-pass')).toBeVisible();
  await expect(page.getByTestId('pass-offline')).toContainText('You are offline.');
  await expect(page.getByTestId('rider-code')).toHaveText(rider.user.riderCode ?? '');
  await expect(page).toHaveURL(/\/me$/);
  expect(await storedToken(page)).toBe(rider.token);
});

for (const viewport of [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`drawn from the stored session on a ${viewport.name}: fits, no WCAG 2.1 AA violations`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const rider = await session(request, createUser('participant'));
    await storeSession(page, rider);
    const check = await holdSessionCheck(page);

    await page.goto('/me');
    await expect(heading(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Warrior Identity' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);

    const answered = page.waitForResponse('**/api/auth/profile');
    check.release();
    await answered;
    await expect(heading(page)).toBeVisible();
    await expectNoViolations(page);
  });
}
