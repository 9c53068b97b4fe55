// The Analytics tab: every chart draws (a canvas per chart) and carries its numbers as a
// table, with the figures of riders seeded here; it fits a 360 px phone without sideways
// scrolling and passes axe at WCAG 2.1 AA, at phone and desktop sizes.
import type { APIRequestContext, Locator } from '@playwright/test';
import type { Analytics } from '@rally/shared/contracts/analytics';
import { bearer, freeRiderNumber, type Session, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { PASSWORD, uniqueEmail } from './support/env';
import { expect, test } from './support/fixtures';
import { pngFixture } from './support/images';

async function signIn(request: APIRequestContext, email: string, password: string): Promise<Session> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  const body = await res.json();
  if (!res.ok()) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return { token: body.token, user: body.data.user };
}

/** Registers a rider of the given club and T-shirt size, and has the admin decide their payment. */
async function seedRider(
  request: APIRequestContext,
  admin: Session,
  rider: { club: string; tshirt: string; decision?: 'verified' | 'rejected' },
) {
  const riderNumber = await freeRiderNumber(request);
  const reg = await request.post('/api/auth/register-with-uploads', {
    multipart: {
      firstName: 'Chart',
      lastName: `Rider${riderNumber}`,
      email: uniqueEmail('analytics'),
      password: PASSWORD,
      phoneNumber: '09171234567',
      category: 'bagani-obr',
      paymentMethod: 'bank_transfer',
      clubName: rider.club,
      riderNumber: String(riderNumber),
      tshirtSize: 'CUSTOM',
      customTshirtSize: rider.tshirt,
      finisherSleeveSize: 'M',
      vestSize: 'L',
      paymentAmount: '2800',
      paymentReceipt: { name: 'receipt.png', mimeType: 'image/png', buffer: pngFixture(120, 160) },
    },
  });
  const body = await reg.json();
  if (!reg.ok()) throw new Error(`registration failed: ${JSON.stringify(body)}`);
  if (!rider.decision) return;
  const decided = await request.post('/api/admin/verifications/verify', {
    headers: bearer(admin.token),
    data: { verification_code: body.data.user.verificationCode, action: rider.decision },
  });
  if (!decided.ok()) throw new Error(`decision failed: ${await decided.text()}`);
}

/** The number a chart's table gives for one row. */
function tableValue(chart: Locator, label: string): Locator {
  return chart
    .locator('tbody tr')
    .filter({ has: chart.page().getByRole('rowheader', { name: label, exact: true }) })
    .locator('td');
}

test('the Analytics tab charts the registrations with their numbers as tables', async ({ page, request }, info) => {
  const created = createUser('admin');
  const admin = await signIn(request, created.email, created.password);
  const stamp = Date.now().toString(36).toUpperCase();
  const club = `Chart Riders ${stamp}`;
  const tall = `TALL ${stamp}`;
  await seedRider(request, admin, { club, tshirt: tall, decision: 'verified' });
  await seedRider(request, admin, { club, tshirt: tall.toLowerCase(), decision: 'verified' });
  await seedRider(request, admin, { club: club.toUpperCase(), tshirt: tall });
  await seedRider(request, admin, { club, tshirt: tall, decision: 'rejected' });
  // Other specs may have registered riders on the same server: the screen must show what the server counts.
  const figures: Analytics = (
    await (await request.get('/api/admin/analytics', { headers: bearer(admin.token) })).json()
  ).data;
  expect(figures.clubs.find((c) => c.club?.toUpperCase() === club.toUpperCase())?.riders).toBe(4);

  await signInWithToken(page, admin.token, admin.user);
  for (const [width, height] of [
    [1280, 800],
    [360, 740],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/admin?tab=analytics');
    await expect(page.getByRole('heading', { name: 'Analytics', level: 2 })).toBeVisible();
    await expect(page.getByTestId('stat-riders')).toHaveText(figures.riders.toLocaleString('en-PH'));

    const charts = page.locator('figure[data-testid^="chart-"]');
    await expect(charts).toHaveCount(9);
    for (const chart of await charts.all()) {
      await expect(chart.locator('[data-chart="uplot"] canvas').first()).toBeAttached();
      await expect(chart.locator('table caption')).not.toBeEmpty();
    }

    const status = page.getByTestId('chart-verification-status');
    await expect(tableValue(status, 'Verified')).toHaveText(String(figures.status.verified));
    await expect(tableValue(status, 'Pending')).toHaveText(String(figures.status.pending));
    await expect(tableValue(status, 'Rejected')).toHaveText(String(figures.status.rejected));
    const category = page.getByTestId('chart-riders-per-category');
    const obr = figures.categories.find((c) => c.category === 'bagani-obr')?.riders;
    await expect(tableValue(category, 'BAGANI OBR')).toHaveText(String(obr));
    const payments = page.getByTestId('chart-riders-per-payment-method');
    const bank = figures.payment_methods.find((m) => m.method === 'bank_transfer')?.riders;
    await expect(tableValue(payments, 'Bank Transfer')).toHaveText(String(bank));
    const route = page.getByTestId('chart-riders-per-route');
    await expect(tableValue(route, 'Bagani')).toHaveText(
      String(figures.routes.find((r) => r.route === 'bagani')?.riders),
    );

    // The seeded club, however its riders spelt it, and the custom size of the two verified riders.
    const clubs = page.getByTestId('chart-riders-per-club');
    const clubRow = clubs.locator('tbody tr').filter({ hasText: new RegExp(`^${club}`, 'i') });
    await expect(clubRow.locator('td')).toHaveText('4');
    const tshirts = page.getByTestId('chart-t-shirt-sizes');
    const custom = tshirts.locator('tbody tr').filter({ hasText: new RegExp(`Custom: ${tall}`, 'i') });
    await expect(custom.locator('td')).toHaveText('2');
    const days = page.getByTestId('chart-registrations-per-day');
    await expect(days.locator('tbody tr')).toHaveCount(figures.registrations_per_day.length);
    await expect(page.getByTestId('stat-median-turnaround')).not.toHaveText('—');

    // The table on screen for anyone who wants the exact figures.
    await clubs.getByRole('button', { name: 'Show as table' }).click();
    await expect(clubs.getByRole('table')).toBeVisible();
    await expect(clubs.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');

    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: info.outputPath(`analytics-${width}.png`), fullPage: true });
    await expectNoViolations(page);
  }
});
