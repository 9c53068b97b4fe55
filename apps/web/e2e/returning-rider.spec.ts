// Editions (DESIGN.md §9), the returning rider: an organiser makes the next edition current;
// a rider verified last year signs in and is offered "Join <edition>" with last year's entry
// filled in and their number held for them (nobody else may claim it), sends a new receipt
// and waits for verification as usual; their public profile keeps last year as history.
// Making another edition current changes the whole server, so this spec has a server of its
// own, which the page, the requests and the operator commands all talk to.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { formatRallyMoment } from '@rally/shared/catalog/editions';
import type { Edition } from '@rally/shared/contracts/editions';
import { bearer, logIn, shownRiderNumber } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD, uniqueEmail } from './support/env';
import { addStation, auth, session, verifiedRider } from './support/event-day';
import { expect, toast } from './support/fixtures';
import { pngFixture } from './support/images';
import { testOnOwnServer } from './support/own-server';

const test = testOnOwnServer(400);

test.use({ viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: true });
};

/** A field of the rider's own kept entry (their join slot of the drafts store). */
function keptField(page: Page, userId: string, field: string): Promise<unknown> {
  return page.evaluate(
    ({ name, slot }) =>
      new Promise((resolve) => {
        const open = indexedDB.open('rally-registration');
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const get = open.result.transaction('drafts').objectStore('drafts').get(slot);
          get.onsuccess = () => {
            open.result.close();
            resolve(get.result?.fields?.[name]);
          };
        };
      }),
    { name: field, slot: `join:${userId}` },
  );
}

test('a returning rider joins the next edition on their held number; last year stays on their profile', async ({
  page,
  request,
}) => {
  // A server of its own beside the other specs' on two cores: the whole year, rollover included.
  test.setTimeout(120_000);
  const admin = await session(request, createUser('admin'));
  const rider = await verifiedRider(request, admin);
  const number = rider.user.riderNumber as number;
  const shown = `#${shownRiderNumber(number)}`;
  // Last year's rally: flagged off, and across the finish line 9:05:07 later.
  const marshal = await session(request, createUser('marshall'));
  const tag = randomBytes(3).toString('hex');
  const start = await addStation(request, admin, { name: `Flag-off ${tag}`, kind: 'start', day: 1 });
  const finish = await addStation(request, admin, { name: `Finish ${tag}`, kind: 'finish', day: 1 });
  const finishedAt = Date.now() - 60_000;
  const elapsed = (9 * 3600 + 5 * 60 + 7) * 1000;
  for (const [station, at] of [
    [start, finishedAt - elapsed],
    [finish, finishedAt],
  ] as const) {
    const passed = await request.post('/api/admin/scans', {
      headers: auth(marshal),
      data: {
        scans: [
          {
            id: randomUUID(),
            stationId: station.id,
            riderCode: rider.user.riderCode,
            scannedAt: new Date(at).toISOString(),
            deviceId: 'e2e-marshal-phone',
            source: 'camera',
            recordedBy: marshal.user.id,
          },
        ],
      },
    });
    expect(passed.ok(), await passed.text()).toBeTruthy();
  }
  const editions = async () => (await (await request.get('/api/editions')).json()).data as Edition[];
  const last = (await editions()).find((e) => e.current) as Edition;

  // The next edition, copied from this one, holding last year's numbers for a month.
  const name = `Warriors ${randomBytes(3).toString('hex')}`;
  const year = Math.max(...(await editions()).map((e) => e.year)) + 1;
  const heldUntil = new Date(Date.now() + 30 * 24 * 3600_000);
  heldUntil.setUTCSeconds(0, 0);
  const made = await request.post('/api/admin/editions', {
    headers: auth(admin),
    data: {
      name,
      year,
      startsOn: `${year}-03-14`,
      endsOn: `${year}-03-16`,
      numbersHeldUntil: heldUntil.toISOString(),
      copyFrom: last.id,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const next = (await made.json()).data.edition as Edition;
  const rolled = await request.post(`/api/admin/editions/${next.id}/make-current`, { headers: auth(admin) });
  expect(rolled.status(), await rolled.text()).toBe(200);
  const record = async () =>
    (await (await request.get('/api/auth/profile', { headers: bearer(rider.token) })).json()).data.user;
  expect(await record()).toMatchObject({ verificationStatus: 'not_entered', riderNumber: null });

  // The number is held: listed as taken, and a new account cannot claim it.
  const taken = (await (await request.get('/api/rider-numbers/taken')).json()).data.takenNumbers as number[];
  expect(taken).toContain(number);
  const claim = await request.post('/api/auth/register-with-uploads', {
    multipart: {
      firstName: 'New',
      lastName: 'Comer',
      email: uniqueEmail('newcomer'),
      password: PASSWORD,
      phoneNumber: '09171234567',
      category: 'lakan',
      paymentMethod: 'cash',
      riderNumber: String(number),
      tshirtSize: 'M',
      finisherSleeveSize: 'M',
      vestSize: 'M',
    },
  });
  expect(claim.status()).toBe(409);
  expect(await claim.json()).toMatchObject({
    success: false,
    code: 'RIDER_NUMBER_HELD',
    message: `Rider number ${number} is held for a returning rider until ${formatRallyMoment(heldUntil.toISOString())}. Please choose another number.`,
  });

  // Signing in, the rider is offered this year's edition, with last year's entry filled in.
  await logIn(page, rider.user.email, PASSWORD);
  await expect(page).toHaveURL(/\/join$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Join ${name}`);
  await expect(page.getByText(`Your entry from ${last.name} is filled in.`)).toBeVisible();
  await expect(page.getByTestId('held-number')).toHaveText(
    `Your number ${shown} is held for you until ${formatRallyMoment(heldUntil.toISOString())}.`,
  );
  await expect(page.getByTestId('selected-rider-number')).toHaveText(shown);
  const checked = (field: string, value: string) => page.locator(`input[name=${field}][value=${value}]`);
  await expect(checked('tshirtSize', 'L')).toBeChecked();
  await expect(checked('finisherSleeveSize', 'M')).toBeChecked();
  await expect(checked('vestSize', 'L')).toBeChecked();
  await expect(checked('category', 'lakan')).toBeChecked();
  await expect(checked('paymentMethod', 'gcash')).toBeChecked();
  await expect(page.getByTestId('registration-closed')).toHaveCount(0);

  // A change is kept on the phone: a reload (a discarded tab) brings it back.
  await page.locator('label:has(input[name=vestSize][value=XL])').click();
  await page.getByLabel('Contact name').fill('Ina Warrior');
  await page.getByLabel('Contact number').fill('09179876543');
  await expect.poll(() => keptField(page, rider.user.id, 'emergencyContactName')).toBe('Ina Warrior');
  // Both typed fields kept before the tab goes (each is written as it changes).
  await expect.poll(() => keptField(page, rider.user.id, 'emergencyContactNumber')).toBe('09179876543');
  await page.reload();
  await expect(page.getByTestId('draft-notice')).toBeVisible();
  await expect(checked('vestSize', 'XL')).toBeChecked();
  await expect(page.getByLabel('Contact name')).toHaveValue('Ina Warrior');
  await expect(page.getByLabel('Contact number')).toHaveValue('09179876543');
  await expect(page.getByTestId('selected-rider-number')).toHaveText(shown);

  // Bad input: the check's message, nothing sent.
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/my/entries') sent.push(r.url());
  });
  await page.getByRole('button', { name: 'JOIN THE RALLY' }).click();
  await expect(toast(page, 'Payment receipt is required for non-cash payments.')).toBeVisible();
  await expect(page.getByTestId('error-summary')).toContainText('Payment receipt is required');
  expect(sent).toEqual([]);
  await page.getByTestId('receipt-input').setInputFiles({
    name: 'gcash-2027.png',
    mimeType: 'image/png',
    buffer: pngFixture(300, 600),
  });
  // Each year's rally is agreed to again.
  await expect(page.getByTestId('error-summary')).toContainText('Please agree to the terms');
  await page.getByLabel('I have read and agree to the Terms and Conditions of the rally.').check();
  await expect(page.getByTestId('error-summary')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);
  await shot(page, 'join-360');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'join-1280');
  await page.setViewportSize({ width: 360, height: 780 });

  // Registration closes meanwhile: the server's words, and nothing typed is lost.
  const closeOn = (registrationClosesAt: string | null) =>
    request.patch(`/api/admin/editions/${next.id}`, { headers: auth(admin), data: { registrationClosesAt } });
  expect((await closeOn('2026-01-31T10:00:00.000Z')).status()).toBe(200);
  const closed = `Registration for ${name} closed on January 31, 2026, 6:00 PM.`;
  try {
    await page.getByRole('button', { name: 'JOIN THE RALLY' }).click();
    await expect(toast(page, closed)).toBeVisible();
    await expect(page.getByTestId('registration-closed')).toHaveText(closed);
    await expect(checked('vestSize', 'XL')).toBeChecked();
    await expect(page.getByText('gcash-2027.png')).toBeVisible();
    await shot(page, 'join-closed-360');
  } finally {
    expect((await closeOn(null)).status()).toBe(200);
  }

  await page.getByRole('button', { name: 'JOIN THE RALLY' }).click();
  await expect(page).toHaveURL(/\/verify$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('VERIFICATION PENDING');
  await expect(page.locator('main')).toContainText(`Rider #${number}`);
  const code = page.getByTestId('verification-code');
  await expect(code).toHaveText(/^WR-/);
  await expect(code).not.toHaveText(rider.user.verificationCode as string);
  expect(await record()).toMatchObject({ verificationStatus: 'pending', riderNumber: number, vestSize: 'XL' });
  await shot(page, 'join-verify-360');

  // The profile keeps last year: drawn by the server, then hydrated.
  const html = await (await request.get(`/user/${rider.user.id}`)).text();
  expect(html).toContain('data-testid="profile-editions"');
  expect(html).toContain(last.name);
  expect(html).toContain('Finished · 9:05:07');
  await page.goto(`/user/${rider.user.id}`);
  const history = page.getByTestId('profile-editions');
  await expect(history.getByRole('heading', { name: 'Editions' })).toBeVisible();
  const past = history.getByTestId('profile-edition').filter({ hasText: last.name });
  await expect(past.getByRole('heading', { level: 3 })).toHaveText(`${last.year} · ${last.name}`);
  await expect(past).toContainText('LAKAN');
  await expect(past).toContainText(shown);
  await expect(past.getByTestId('edition-result')).toHaveText('Finished · 9:05:07');
  await expect(past.getByTestId('finisher-badge')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectNoViolations(page);
  await shot(page, 'profile-editions-360');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'profile-editions-1280');
});
