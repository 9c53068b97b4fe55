// Editions (issue 29): an organiser makes the next edition in the console, from the current
// one's settings, with its dates and registration window, and closes the current edition's
// registration; a rider opening the form is told so with the dates before typing, and the
// server refuses with the same words. The window is put back open at the end, so no later
// spec on this worker's server meets a closed registration.
import { randomBytes } from 'node:crypto';
import type { Edition } from '@rally/shared/contracts/editions';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { auth, session } from './support/event-day';
import { expect, test, toast } from './support/fixtures';

test('an organiser makes the next edition and closes registration; a rider is told before typing', async ({
  page,
  request,
}) => {
  const admin = await session(request, createUser('admin'));
  const editions = async () => (await (await request.get('/api/editions')).json()).data as Edition[];
  const current = (await editions()).find((e) => e.current) as Edition;
  const reopen = () =>
    request.patch(`/api/admin/editions/${current.id}`, {
      headers: auth(admin),
      data: { registrationOpensAt: null, registrationClosesAt: null },
    });
  try {
    await page.setViewportSize({ width: 360, height: 800 });
    await signInWithToken(page, admin.token, admin.user);
    await page.goto('/admin?tab=editions');
    await expect(page.getByRole('heading', { name: 'Editions', level: 2 })).toBeVisible();
    const cards = page.getByTestId('edition');
    const currentCard = cards.filter({ has: page.getByText('Current', { exact: true }) });
    await expect(currentCard).toHaveCount(1);
    await expect(currentCard.getByRole('heading', { level: 3 })).toHaveText(current.name);
    await expect(currentCard.getByTestId('edition-registration')).toHaveText('Open, no closing date');

    // The next edition, its settings copied from the current one (offered first).
    const name = `Warriors ${randomBytes(3).toString('hex')}`;
    await page.getByRole('button', { name: 'Next Edition' }).click();
    const form = page.getByTestId('new-edition');
    await expect(form.getByLabel('Year')).toHaveValue(String(Math.max(...(await editions()).map((e) => e.year)) + 1));
    await expect(form.getByLabel('Copy settings from')).toHaveValue(current.id);
    // A problem is named before any call, and nothing is made.
    await form.getByRole('button', { name: 'Create Edition' }).click();
    await expect(form.getByRole('alert')).toHaveText(/name/);
    await form.getByLabel('Edition name').fill(name);
    // It spoke of what was submitted: gone once a field changes.
    await expect(form.getByRole('alert')).toHaveCount(0);
    await form.getByLabel('Year').fill('2031');
    await form.getByLabel('Starts on').fill('2031-03-14');
    await form.getByLabel('Ends on').fill('2031-03-16');
    await form.getByLabel('Registration opens').fill('2030-12-01T08:00');
    await form.getByLabel('Registration closes').fill('2031-02-28T23:59');
    await form.getByLabel("Returning riders' numbers held until").fill('2031-01-15T23:59');
    if (process.env.E2E_SHOTS) await form.screenshot({ path: `${process.env.E2E_SHOTS}/edition-form-360.png` });
    await form.getByRole('button', { name: 'Create Edition' }).click();
    await expect(toast(page, `${name} created`)).toBeVisible();
    const made = cards.filter({ has: page.getByRole('heading', { name, level: 3 }) });
    await expect(made.getByTestId('edition-registration')).toHaveText(
      'Opens December 1, 2030, 8:00 AM, closes February 28, 2031, 11:59 PM',
    );
    await expect(made).toContainText('March 14, 2031 – March 16, 2031');
    await expect(made).toContainText('January 15, 2031, 11:59 PM');
    await expect(made).toContainText(`Settings copied from${current.name}`);
    expect((await editions()).find((e) => e.name === name)).toMatchObject({
      year: 2031,
      current: false,
      registrationOpensAt: '2030-12-01T00:00:00.000Z',
      copiedFrom: current.id,
    });
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
    if (process.env.E2E_SHOTS)
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/editions-360.png`, fullPage: true });

    // Registration for the current edition closed yesterday (Manila time).
    await currentCard.getByRole('button', { name: `Edit ${current.name}` }).click();
    await currentCard.getByLabel('Registration closes').fill('2026-01-31T18:00');
    await currentCard.getByRole('button', { name: 'Save Edition' }).click();
    await expect(toast(page, `${current.name} saved`)).toBeVisible();
    await expect(currentCard.getByTestId('edition-registration')).toHaveText('Closed January 31, 2026, 6:00 PM');
    if (process.env.E2E_SHOTS) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/editions-1280.png`, fullPage: true });
    }

    // A rider opening the form is told, with the date; the server says the same.
    const message = `Registration for ${current.name} closed on January 31, 2026, 6:00 PM.`;
    const rider = await page.context().browser()?.newPage();
    if (!rider) throw new Error('no browser');
    try {
      await rider.setViewportSize({ width: 360, height: 800 });
      await rider.goto(new URL('/register', page.url()).toString());
      await expect(rider.getByTestId('registration-closed')).toHaveText(message);
      if (process.env.E2E_SHOTS)
        await rider.screenshot({ path: `${process.env.E2E_SHOTS}/registration-closed-360.png` });
    } finally {
      await rider.close();
    }
    const refused = await request.post('/api/auth/register', {
      data: {
        firstName: 'Late',
        lastName: 'Rider',
        email: `late.${randomBytes(3).toString('hex')}@example.com`,
        password: 'Warrior1Pass',
        phoneNumber: '09171234567',
        category: 'lakan',
        paymentMethod: 'cash',
        riderNumber: 999,
        tshirtSize: 'L',
        finisherSleeveSize: 'M',
        vestSize: 'L',
        paymentAmount: 2700,
      },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({ success: false, code: 'REGISTRATION_CLOSED', message });
  } finally {
    expect((await reopen()).status()).toBe(200);
  }
});

test('the current edition’s prices are what the landing page and the form show', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const current = ((await (await request.get('/api/editions')).json()).data as Edition[]).find(
    (e) => e.current,
  ) as Edition;
  const setPrices = (prices: Partial<Edition['prices']>) =>
    request.patch(`/api/admin/editions/${current.id}`, { headers: auth(admin), data: { prices } });
  expect((await setPrices({ lakan: 2950 })).status()).toBe(200);
  try {
    await page.setViewportSize({ width: 360, height: 800 });
    // The landing page is prerendered with the catalog's prices, then asks the edition's.
    await page.goto('/');
    await expect(page.locator('#trials')).toContainText('₱2,950');
    await page.goto('/register');
    const lakan = page.locator('label[data-category="lakan"]');
    await expect(lakan).toContainText('₱2,950');
    await lakan.click();
    await expect(page.getByTestId('amount-due')).toHaveText('₱2,950');
  } finally {
    expect((await setPrices({ lakan: current.prices.lakan })).status()).toBe(200);
  }
});
