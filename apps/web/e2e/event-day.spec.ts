// The console's Event Day tab end to end: stations created, edited,
// reordered and closed by an admin; a station with scans refused deletion; flagged scans
// made by a marshal's device reviewed; an officer's read-only view; the phone layout and
// WCAG 2.1 AA.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { uniqueEmail } from './support/env';
import { addStation, auth, type Session, scan, session, verifiedRider } from './support/event-day';
import { expect, test, toast } from './support/fixtures';

/** Each test works on its own day, so the stations of other tests never shift its order. */
let dayCounter = 0;
function freshDay(): number {
  dayCounter += 1;
  return 2 + (((Date.now() / 1000 + dayCounter * 7) % 28) | 0);
}

async function openEventDay(page: Page, who: Session) {
  await signInWithToken(page, who.token, who.user);
  await page.goto('/admin?tab=event-day');
  await expect(page.getByRole('heading', { name: 'Event Day' })).toBeVisible();
}

const dayNames = (page: Page, day: number) =>
  page.locator(`[data-testid="station-day"][data-day="${day}"] [data-testid="station-name"]`);

test('an admin creates, edits, reorders and closes stations', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const day = freshDay();
  const tag = randomUUID().slice(0, 6);
  const first = await addStation(request, admin, { name: `Davao flag-off ${tag}`, kind: 'start', day });

  await openEventDay(page, admin);
  await expect(page.locator(`tr[data-station-id="${first.id}"]`)).toBeVisible();

  // Create through the form dialog.
  await page.getByRole('button', { name: 'New Station' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Station' });
  await dialog.getByLabel('Name').fill(`Marilog ${tag}`);
  await dialog.getByLabel('Kind').selectOption('checkpoint');
  await dialog.getByLabel('Day').fill(String(day));
  await dialog.getByRole('checkbox', { name: 'Lakambini/Magani' }).check();
  await dialog.getByLabel('Required for a finish').check();
  await dialog.getByRole('button', { name: 'Create Station' }).click();
  await expect(toast(page, `Station Marilog ${tag} created`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(dayNames(page, day)).toHaveText([`Davao flag-off ${tag}`, `Marilog ${tag}`]);
  const marilog = page.getByTestId('station-row').filter({ hasText: `Marilog ${tag}` });
  await expect(marilog).toContainText('Lakambini/Magani');
  await expect(marilog).toContainText('Required');

  // A bad form is refused with the contract's message before anything is sent.
  await page.getByRole('button', { name: 'New Station' }).click();
  await page.getByRole('dialog', { name: 'New Station' }).getByRole('button', { name: 'Create Station' }).click();
  await expect(page.getByRole('dialog', { name: 'New Station' }).getByRole('alert')).toHaveText('name is required');
  await page.getByRole('dialog', { name: 'New Station' }).getByRole('button', { name: 'Cancel' }).click();

  // Edit.
  await page.getByRole('button', { name: `Edit Marilog ${tag}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Station' });
  await expect(edit.getByLabel('Name')).toHaveValue(`Marilog ${tag}`);
  await edit.getByLabel('Name').fill(`Marilog Summit ${tag}`);
  await edit.getByRole('button', { name: 'Save Station' }).click();
  await expect(toast(page, `Station Marilog Summit ${tag} saved`)).toBeVisible();
  await expect(dayNames(page, day)).toHaveText([`Davao flag-off ${tag}`, `Marilog Summit ${tag}`]);

  // Reorder with the keyboard: the focus stays on the moved station's controls.
  await page.getByRole('button', { name: `Move Marilog Summit ${tag} up` }).focus();
  await page.keyboard.press('Enter');
  await expect(dayNames(page, day)).toHaveText([`Marilog Summit ${tag}`, `Davao flag-off ${tag}`]);
  await expect(page.getByRole('button', { name: `Move Marilog Summit ${tag} down` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dayNames(page, day)).toHaveText([`Davao flag-off ${tag}`, `Marilog Summit ${tag}`]);
  // The screen moves at once; the server has the move once it is announced (the moves are
  // sent one after another, and a reload before the second had left dropped it in CI).
  await expect(page.getByText(`Marilog Summit ${tag} moved to position 2 of day ${day}`)).toBeAttached();
  // The order is the server's, not only the screen's.
  await page.reload();
  await expect(dayNames(page, day)).toHaveText([`Davao flag-off ${tag}`, `Marilog Summit ${tag}`]);

  // Close, then reopen.
  const row = page.locator(`tr[data-station-id="${first.id}"]`);
  await page.getByRole('button', { name: `Close Davao flag-off ${tag}` }).click();
  await expect(row.getByTestId('station-status')).toHaveText('Closed');
  await page.getByRole('button', { name: `Reopen Davao flag-off ${tag}` }).click();
  await expect(row.getByTestId('station-status')).toHaveText('Open');
});

test('a station with scans cannot be deleted; one without can', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await session(request, createUser('participant', uniqueEmail('scanned')));
  const day = freshDay();
  const tag = randomUUID().slice(0, 6);
  const used = await addStation(request, admin, { name: `Calinan ${tag}`, kind: 'checkpoint', day });
  const unused = await addStation(request, admin, { name: `Spare ${tag}`, kind: 'checkpoint', day });
  const riderCode = rider.user.riderCode;
  if (!riderCode) throw new Error('the operator-made rider has no rider code');
  expect((await scan(request, marshal, used.id, { riderCode })).status).toBe('accepted');

  page.on('dialog', (d) => void d.accept());
  await openEventDay(page, admin);
  const usedRow = page.locator(`tr[data-station-id="${used.id}"]`);
  await expect(usedRow.getByTestId('station-scans')).toHaveText('1');

  await page.getByRole('button', { name: `Delete Calinan ${tag}` }).click();
  await expect(page.getByTestId('stations-notice')).toBeVisible();
  const refusal = await page.getByTestId('stations-notice').textContent();
  expect(refusal?.length).toBeGreaterThan(10);
  await expect(usedRow).toBeVisible();

  await page.getByRole('button', { name: `Delete Spare ${tag}` }).click();
  await expect(toast(page, `Spare ${tag} deleted`)).toBeVisible();
  await expect(page.locator(`tr[data-station-id="${unused.id}"]`)).toHaveCount(0);
  await expect(page.getByTestId('stations-notice')).toBeHidden();
});

test('flagged scans are reviewed: accepted and voided with reasons, they leave the open queue', async ({
  page,
  request,
}) => {
  const admin = await session(request, createUser('admin'));
  const marshal = await session(request, createUser('marshall'));
  const rider = await session(request, createUser('participant', uniqueEmail('flagged')));
  const day = freshDay();
  const station = await addStation(request, admin, {
    name: `Bukidnon ${randomUUID().slice(0, 6)}`,
    kind: 'checkpoint',
    day,
  });
  const riderCode = rider.user.riderCode ?? '';

  expect((await scan(request, marshal, station.id, { riderCode })).status).toBe('accepted');
  const rescan = await scan(request, marshal, station.id, { riderCode });
  expect(rescan).toMatchObject({ status: 'flagged', reason: 'rescan' });
  const unknown = await scan(request, marshal, station.id, { riderCode: `NOBODY-${randomUUID()}` });
  expect(unknown).toMatchObject({ status: 'flagged', reason: 'unknown_rider' });

  await openEventDay(page, admin);
  const rescanRow = page.locator(`[data-scan-id="${rescan.id}"]`);
  const unknownRow = page.locator(`[data-scan-id="${unknown.id}"]`);
  await expect(rescanRow).toContainText('Re-scan at the same station');
  await expect(rescanRow).toContainText(station.name);
  await expect(rescanRow).toContainText('Device');
  await expect(rescanRow).toContainText('Received');
  await expect(rescanRow).toContainText('e2e-marshal-phone');
  await expect(unknownRow).toContainText('Unknown rider');

  // A decision needs a reason.
  await rescanRow.getByRole('button', { name: /^Accept the scan of/ }).click();
  await expect(rescanRow.getByRole('alert')).toHaveText('Give a reason for the decision');

  // One tap on a common reason, then accept.
  await rescanRow.getByRole('button', { name: 'Rider seen at the station' }).click();
  await rescanRow.getByRole('button', { name: /^Accept the scan of/ }).click();
  await expect(toast(page, 'Scan accepted')).toBeVisible();
  await expect(rescanRow).toHaveCount(0);

  // A typed reason, then void.
  await unknownRow.getByRole('textbox').fill('Sticker of a spectator, not a rider');
  await unknownRow.getByRole('button', { name: /^Void the scan of/ }).click();
  await expect(toast(page, 'Scan voided')).toBeVisible();
  await expect(unknownRow).toHaveCount(0);

  // Both are on record as reviewed, with their reasons.
  await page.getByLabel('Show').selectOption('reviewed');
  await expect(rescanRow.getByTestId('review-outcome')).toContainText('Accepted');
  await expect(rescanRow.getByTestId('review-outcome')).toContainText('Rider seen at the station');
  await expect(unknownRow.getByTestId('review-outcome')).toContainText('Voided');
  await expect(unknownRow.getByTestId('review-outcome')).toContainText('Sticker of a spectator, not a rider');

  // And the server kept them out of the open queue.
  const open = await request.get('/api/admin/scans/flagged?state=open&limit=200', { headers: auth(admin) });
  const ids = ((await open.json()).data.scans as Array<{ id: string }>).map((s) => s.id);
  expect(ids).not.toContain(rescan.id);
  expect(ids).not.toContain(unknown.id);
});

test('an officer sees the Event Day tab read-only', async ({ page, request }) => {
  const admin = await session(request, createUser('admin'));
  const officer = await session(request, createUser('officer'));
  const marshal = await session(request, createUser('marshall'));
  const station = await addStation(request, admin, {
    name: `Officer view ${randomUUID().slice(0, 6)}`,
    kind: 'checkpoint',
    day: freshDay(),
  });
  const flagged = await scan(request, marshal, station.id, { riderCode: `NOBODY-${randomUUID()}` });

  await openEventDay(page, officer);
  await expect(page.locator(`tr[data-station-id="${station.id}"]`)).toBeVisible();
  await expect(page.getByText('Read only: stations are set up by organisers')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Station' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Edit ${station.name}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Delete ${station.name}` })).toHaveCount(0);
  // Officers do not scan.
  await expect(page.getByRole('link', { name: 'Open Scanner' })).toHaveCount(0);
  const row = page.locator(`[data-scan-id="${flagged.id}"]`);
  await expect(row).toContainText('Awaiting review');
  await expect(row.getByRole('button', { name: /^Accept/ })).toHaveCount(0);
});

for (const viewport of [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`the Event Day tab on a ${viewport.name}: no sideways scroll, no WCAG 2.1 AA violations`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const admin = await session(request, createUser('admin'));
    const marshal = await session(request, createUser('marshall'));
    const rider = await verifiedRider(request, admin);
    const station = await addStation(request, admin, {
      name: `Layout check ${randomUUID().slice(0, 6)}`,
      kind: 'checkpoint',
      day: freshDay(),
      routes: ['lakan', 'bagani'],
      opensAt: new Date(Date.now() - 3_600_000).toISOString(),
      closesAt: new Date(Date.now() + 3_600_000).toISOString(),
      required: true,
    });
    expect((await scan(request, marshal, station.id, { riderCode: rider.user.riderCode ?? '' })).status).toBe(
      'accepted',
    );
    const flagged = await scan(request, marshal, station.id, { riderCode: rider.user.riderCode ?? '' });
    expect(flagged).toMatchObject({ status: 'flagged', reason: 'rescan' });

    await openEventDay(page, admin);
    await expect(page.locator(`tr[data-station-id="${station.id}"]`)).toBeVisible();
    await expect(page.locator(`[data-scan-id="${flagged.id}"]`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open Scanner' })).toHaveAttribute('href', '/scan');

    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);

    // The form dialog too.
    await page.getByRole('button', { name: 'New Station' }).click();
    await expect(page.getByRole('dialog', { name: 'New Station' })).toBeVisible();
    await expectNoViolations(page);

    if (process.env.E2E_SHOTS) {
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/event-day-${viewport.width}.png`, fullPage: true });
    }
  });
}
