// Rider community (/user/{userId}) and My Profile (/me):
// fire, support comments, the rider's own comments, one-time sizes, the rider-code QR.
import type { APIRequestContext, Page } from '@playwright/test';
import type { UserRecord } from '@rally/shared/contracts/auth';
import jsQR from 'jsqr';
import { signInWithToken } from './support/api';
import { expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';

interface Session {
  email: string;
  token: string;
  user: UserRecord;
}

/** An operator-created participant (active, verified, with a rider code, no sizes), signed in through the API. */
async function participant(request: APIRequestContext): Promise<Session> {
  const created = createUser('participant');
  const res = await request.post('/api/auth/login', { data: { email: created.email, password: created.password } });
  const body = await res.json();
  if (!res.ok()) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return { email: created.email, token: body.token, user: body.data.user };
}

async function signIn(page: Page, session: Session) {
  await signInWithToken(page, session.token, session.user);
}

test('a rider gives fire and a support message; the other rider sees both; the author finds it in My Profile', async ({
  page,
  request,
}) => {
  const a = await participant(request);
  const b = await participant(request);
  const message = `Ride safe at the Bukidnon stretch, warrior! ${Date.now()}`;

  // Rider A on rider B's public profile.
  await signIn(page, a);
  await page.goto(`/user/${b.user.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'TEST' })).toBeVisible();
  await expect(page.getByTestId('fire-count')).toHaveText('0');
  await expect(page.getByText('Not logged in - fire functionality disabled')).toHaveCount(0);

  await page.getByRole('button', { name: 'GIVE FIRE' }).click();
  await expect(page.getByRole('button', { name: 'FIRE GIVEN' })).toBeDisabled();
  await expect(page.getByTestId('fire-count')).toHaveText('1');

  const box = page.getByLabel('Your support message');
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await box.fill('   ');
  await expect(send).toBeDisabled();
  await box.fill(message);
  await send.click();
  await expect(toast(page, 'Comment added')).toBeVisible();
  await expect(box).toHaveValue('');
  const list = page.getByRole('region', { name: 'Support messages' });
  await expect(list).toContainText(message);
  await expect(list).toContainText('Just now');

  // The fire is remembered by the server, not the page.
  await page.reload();
  await expect(page.getByRole('button', { name: 'FIRE GIVEN' })).toBeDisabled();
  await expect(page.getByTestId('fire-count')).toHaveText('1');

  // Rider B opens their own public view from My Profile.
  await signIn(page, b);
  await page.goto('/me');
  await page.getByRole('link', { name: 'Public View' }).click();
  await page.waitForURL(`**/user/${b.user.id}`);
  await expect(page.getByTestId('fire-count')).toHaveText('1');
  await expect(page.getByRole('region', { name: 'Support messages' })).toContainText(message);
  await expect(page.getByText('You cannot comment on your own profile')).toBeVisible();
  await expect(page.getByLabel('Your support message')).toHaveCount(0);
  await page.getByRole('button', { name: 'GIVE FIRE' }).click();
  await expect(toast(page, "You can't give fire to yourself! 🤔")).toBeVisible();
  await expect(page.getByTestId('fire-count')).toHaveText('1');

  // Rider A's My Profile lists the message under Comments, loaded when the tab opens.
  await signIn(page, a);
  await page.goto('/me');
  await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /My Details/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: /Comments/ }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel).toContainText(message);
  await expect(panel.getByRole('link', { name: 'Test participant', exact: true })).toHaveAttribute(
    'href',
    `/user/${b.user.id}`,
  );
});

test('sizes are submitted once, then their tabs disappear', async ({ page, request }) => {
  const rider = await participant(request);
  await signIn(page, rider);
  await page.goto('/me');

  const tshirtTab = page.getByRole('tab', { name: 'T-shirt Size' });
  await tshirtTab.click();
  await page.getByRole('button', { name: 'Submit T-shirt Size' }).click();
  await expect(toast(page, 'Please select a T-shirt size')).toBeVisible();
  await page.locator('label:has(input[name=tshirtSize][value=CUSTOM])').click();
  await page.getByRole('button', { name: 'Submit T-shirt Size' }).click();
  await expect(toast(page, 'Please enter your custom T-shirt size')).toBeVisible();
  await page.getByLabel('Custom T-shirt size').fill('chest 58 in');
  await page.getByRole('button', { name: 'Submit T-shirt Size' }).click();
  const celebration = page.getByRole('dialog', { name: 'Size Locked In!' });
  await expect(celebration).toBeVisible();
  await expect(tshirtTab).toHaveCount(0);
  // The celebration closes itself after 4 seconds.
  await expect(celebration).toBeHidden({ timeout: 7_000 });

  const gearTab = page.getByRole('tab', { name: 'Gear Sizes' });
  await gearTab.click();
  await page.locator('label:has(input[name=finisherSleeveSize][value=M])').click();
  await page.getByRole('button', { name: 'Submit Gear Sizes' }).click();
  await expect(toast(page, 'Please select a vest size')).toBeVisible();
  await page.locator('label:has(input[name=vestSize][value=CUSTOM])').click();
  await page.getByRole('button', { name: 'Submit Gear Sizes' }).click();
  await expect(toast(page, 'Please enter your custom vest size')).toBeVisible();
  await page.getByLabel('Custom vest size').fill('XL, long cut');
  await page.getByRole('button', { name: 'Submit Gear Sizes' }).click();
  await expect(page.getByRole('dialog', { name: 'Gear Locked In!' })).toBeVisible();
  await expect(gearTab).toHaveCount(0);

  // My Details shows what was stored, and the tabs stay gone after a reload.
  await page.reload();
  await expect(page.getByRole('tab', { name: /My Details/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'T-shirt Size' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Gear Sizes' })).toHaveCount(0);
  const details = page.getByRole('tabpanel');
  await expect(details).toContainText('CUSTOM (chest 58 in)');
  await expect(details).toContainText('CUSTOM (XL, long cut)');
  await expect(details).toContainText('No known allergies');
});

test('an anonymous visitor sees the Log in link and no comment box', async ({ page, request }) => {
  const rider = await participant(request);
  await page.goto(`/user/${rider.user.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'TEST' })).toBeVisible();
  const support = page.getByRole('region', { name: 'Warrior Support' });
  await expect(support.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  await expect(support.getByText('Please log in to add comments')).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await expect(page.getByText('Not logged in - fire functionality disabled')).toBeVisible();
  await page.getByRole('button', { name: 'GIVE FIRE' }).click();
  await expect(toast(page, 'Please log in to give fire! 🔥')).toBeVisible();
  await expect(page.getByTestId('fire-count')).toHaveText('0');

  // Stats panel of a verified operator-made participant.
  const stats = page.getByRole('region', { name: 'Warrior Stats' });
  await expect(stats).toContainText('VERIFIED');
  await expect(stats).toContainText('Participant');

  // Share: copy shows its confirmation for 2 seconds.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Share Profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Profile' });
  await expect(dialog.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\//);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/user/${rider.user.id}$`));
  await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 4_000 });
});

test('unknown riders show Warrior Not Found, and /user shows the demo warrior', async ({ page }) => {
  await page.goto('/user/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Warrior Not Found' })).toBeVisible();
  await expect(page.getByText('User not found')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Rally' }).click();
  await page.waitForURL((url) => url.pathname === '/');

  await page.goto('/user');
  await expect(page.getByRole('heading', { level: 1, name: 'DATU OF THE SOUTH' })).toBeVisible();
  await expect(page.getByTestId('fire-count')).toHaveText('42');
});

test('the Rider Code tab shows a scannable QR of the rider code, and Logout says farewell', async ({
  page,
  request,
}) => {
  const rider = await participant(request);
  const code = await request.get('/api/my/rider-code', { headers: { authorization: `Bearer ${rider.token}` } });
  const riderCode: string = (await code.json()).data.riderCode;

  await signIn(page, rider);
  await page.goto('/me');
  await page.getByRole('tab', { name: 'Rider Code' }).click();
  const canvas = page.getByTestId('rider-qr');
  await expect(canvas).toBeVisible();
  await expect(page.getByTestId('rider-code')).toHaveText(riderCode);
  // Let the centre logo draw, then read the pixels back and scan them.
  await page.waitForTimeout(300);
  const pixels = await canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    return { width: c.width, height: c.height, data: Array.from(ctx.getImageData(0, 0, c.width, c.height).data) };
  });
  const decoded = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  expect(decoded?.data).toBe(riderCode);

  // Participants have no Admin Panel entry.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(toast(page, 'Farewell, Test! May the spirits guide your path.')).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/');
  // The session ends as the old page unmounts, a moment after the URL changes.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
});

test('staff see the Admin Panel entry in the menu', async ({ page, request }) => {
  const officer = createUser('officer');
  const res = await request.post('/api/auth/login', { data: { email: officer.email, password: officer.password } });
  const body = await res.json();
  await signInWithToken(page, body.token, body.data.user);
  await page.goto('/me');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: 'Admin Panel' })).toBeHidden();
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test.describe(`${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // Several full axe runs on a shared two-core machine.
    test.describe.configure({ timeout: 120_000 });

    test('public profile has no WCAG 2.1 AA violations', async ({ page, request }) => {
      const a = await participant(request);
      const b = await participant(request);
      await page.goto(`/user/${b.user.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoViolations(page);

      await signIn(page, a);
      await page.goto(`/user/${b.user.id}`);
      await expect(page.getByLabel('Your support message')).toBeVisible();
      await expectNoViolations(page);
      await page.getByRole('button', { name: 'Share Profile' }).click();
      await expect(page.getByRole('dialog', { name: 'Share Profile' })).toBeVisible();
      await expectNoViolations(page);
    });

    test('every My Profile tab has no WCAG 2.1 AA violations', async ({ page, request }) => {
      const rider = await participant(request);
      await signIn(page, rider);
      await page.goto('/me');
      for (const name of ['My Details', 'Rider Code', 'Comments', 'Announcements', 'T-shirt Size', 'Gear Sizes']) {
        await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
        await expect(page.getByRole('tabpanel').getByRole('status')).toHaveCount(0);
        await expectNoViolations(page);
      }
    });
  });
}

test('My Profile tabs work by keyboard', async ({ page, request }) => {
  const rider = await participant(request);
  await signIn(page, rider);
  await page.goto('/me');
  const details = page.getByRole('tab', { name: 'My Details' });
  // Drawn by the server, the tabs wait for the page's scripts before they take focus.
  await expect(details).toBeEnabled();
  await details.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Comments' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Comments' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No Comments Yet')).toBeVisible();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Password' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.getByRole('tab', { name: 'Rider Code' })).toBeFocused();
});
