// My Profile on a phone (issue 18): every tab is in view from 320 px up, with no
// sideways scroll, and the rider keeps their phone, address, emergency contact and
// medical notes up to date from My Details.
import type { APIRequestContext, Page } from '@playwright/test';
import { PH_MOBILE_MESSAGE } from '@rally/shared/contracts/rider-details';
import { signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { type Session, session } from './support/event-day';
import { expect, test, toast } from './support/fixtures';

/**
 * An account made by the operator CLI has not sent its sizes yet, so My Profile shows all
 * seven tabs, the most the strip ever holds.
 */
async function riderWithEveryTab(request: APIRequestContext): Promise<Session> {
  return session(request, createUser('participant'));
}

async function openProfile(page: Page, rider: Session) {
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await expect(page.getByRole('heading', { name: 'MY PROFILE' })).toBeVisible();
}

const ALL_TABS = ['Rider Code', 'Comments', 'My Details', 'Announcements', 'T-shirt Size', 'Gear Sizes', 'Password'];

for (const viewport of [
  { width: 320, height: 640 },
  { width: 360, height: 740 },
  { width: 414, height: 896 },
  { width: 1280, height: 800 },
]) {
  test.describe(`${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('every tab is inside the viewport and opens on a click; nothing scrolls sideways', async ({
      page,
      request,
    }) => {
      await openProfile(page, await riderWithEveryTab(request));
      const tabs = page.getByRole('tablist', { name: 'My profile sections' }).getByRole('tab');
      await expect(tabs).toHaveText(ALL_TABS.map((t) => new RegExp(t, 'i')));
      for (const name of ALL_TABS) {
        // A tab's name may carry its unread count ("Announcements 1 unread") when another test posted one.
        const tab = page.getByRole('tab', { name: new RegExp(`^${name}( \\d+ unread)?$`) });
        const box = await tab.boundingBox();
        expect(box, name).not.toBeNull();
        if (!box) continue;
        expect(box.x, `${name} starts inside the viewport`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${name} ends inside the viewport`).toBeLessThanOrEqual(viewport.width);
        // The tab's label is not cut off inside its own box.
        expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth), `${name} shows its whole label`).toBe(
          true,
        );
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true');
        await expect(page.getByRole('tabpanel')).toBeVisible();
      }
      await expectNoSidewaysScroll(page);

      // The arrow keys still walk the tabs, wrapping at the ends.
      await page.getByRole('tab', { name: 'Password', exact: true }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByRole('tab', { name: 'Rider Code', exact: true })).toBeFocused();
      await expect(page.getByRole('tab', { name: 'Rider Code', exact: true })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowLeft');
      await expect(page.getByRole('tab', { name: 'Password', exact: true })).toHaveAttribute('aria-selected', 'true');
    });

    test('My Details and its edit form have no WCAG 2.1 AA violations and no sideways scroll', async ({
      page,
      request,
    }) => {
      await openProfile(page, await riderWithEveryTab(request));
      await expect(page.getByRole('tab', { name: 'My Details', exact: true })).toHaveAttribute('aria-selected', 'true');
      await expectNoViolations(page);
      await page.getByRole('button', { name: 'Edit My Details' }).click();
      await expect(page.getByTestId('my-details-form')).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectNoViolations(page);
      // With a refused number on screen too.
      await page.getByLabel('Emergency Contact Number', { exact: true }).fill('12345');
      await page.getByRole('button', { name: 'Save Details' }).click();
      await expect(page.getByText(PH_MOBILE_MESSAGE)).toBeVisible();
      await expectNoViolations(page);
    });
  });
}

test.describe('editing my details', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the rider saves phone, address, emergency contact and medical notes; they stay after a reload', async ({
    page,
    request,
  }) => {
    const rider = await riderWithEveryTab(request);
    await openProfile(page, rider);
    const medical = page.locator('section', { has: page.getByRole('heading', { name: 'Emergency & Medical' }) });
    await expect(medical).toContainText('No known allergies');

    await page.getByRole('button', { name: 'Edit My Details' }).click();
    await page.getByLabel('Phone Number', { exact: true }).fill('0917 222 3344');
    await page.getByLabel('Address', { exact: true }).fill('Purok 7, Barangay Mintal, Davao City');
    await page.getByLabel('Emergency Contact Name', { exact: true }).fill('Dayang Mintal');
    await page.getByLabel('Emergency Contact Number', { exact: true }).fill('+63 918 555 0199');
    await page.getByLabel('Blood Type', { exact: true }).selectOption('O+');
    await page.getByLabel('Allergies', { exact: true }).fill('Penicillin');
    await page.getByLabel('Medical Conditions', { exact: true }).fill('Asthma, carries an inhaler');
    await page.getByRole('button', { name: 'Save Details' }).click();
    await expect(toast(page, 'Your details have been updated')).toBeVisible();
    await expect(page.getByTestId('my-details-form')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit My Details' })).toBeFocused();

    const expectSaved = async () => {
      const contact = page.locator('section', { has: page.getByRole('heading', { name: 'Contact', exact: true }) });
      await expect(contact).toContainText('0917 222 3344');
      await expect(contact).toContainText('Purok 7, Barangay Mintal, Davao City');
      await expect(medical).toContainText('Dayang Mintal');
      await expect(medical).toContainText('+63 918 555 0199');
      await expect(medical).toContainText('O+');
      await expect(medical).toContainText('Penicillin');
      await expect(medical).toContainText('Asthma, carries an inhaler');
      await expect(medical).not.toContainText('No known allergies');
    };
    await expectSaved();
    await page.reload();
    await expectSaved();

    // Clearing the allergies brings the fixed fallback back.
    await page.getByRole('button', { name: 'Edit My Details' }).click();
    await page.getByLabel('Allergies', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save Details' }).click();
    await expect(toast(page, 'Your details have been updated')).toBeVisible();
    await expect(medical).toContainText('No known allergies');
  });

  test('a number that is not a Philippine mobile is refused in place and nothing changes', async ({
    page,
    request,
  }) => {
    const rider = await riderWithEveryTab(request);
    // A contact on record to begin with.
    const seeded = await request.patch('/api/my/details', {
      headers: { Authorization: `Bearer ${rider.token}` },
      data: { emergencyContactName: 'Inang Bato', emergencyContactNumber: '09181112222' },
    });
    expect(seeded.ok()).toBeTruthy();
    await openProfile(page, rider);

    await page.getByRole('button', { name: 'Edit My Details' }).click();
    const number = page.getByLabel('Emergency Contact Number', { exact: true });
    await number.fill('0918 111');
    await page.getByLabel('Allergies', { exact: true }).fill('Shellfish');
    await page.getByRole('button', { name: 'Save Details' }).click();
    await expect(page.getByText(PH_MOBILE_MESSAGE)).toBeVisible();
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toBeFocused();

    // The server holds the same rule: nothing was saved, not even the good field beside it.
    const direct = await request.patch('/api/my/details', {
      headers: { Authorization: `Bearer ${rider.token}` },
      data: { emergencyContactNumber: '0918 111', allergies: 'Shellfish' },
    });
    expect(direct.status()).toBe(400);
    expect((await direct.json()).message).toBe(PH_MOBILE_MESSAGE);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.reload();
    const medical = page.locator('section', { has: page.getByRole('heading', { name: 'Emergency & Medical' }) });
    await expect(medical).toContainText('09181112222');
    await expect(medical).toContainText('No known allergies');
    await expect(medical).not.toContainText('Shellfish');
  });
});
