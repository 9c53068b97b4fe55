// Issue 41: staff who scan set the SMS PIN that makes their texted scans count, in My Profile
// (My Details, below Notifications). It is never shown again; riders have no such form.
import { sessionOf, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';

for (const viewport of [
  { width: 360, height: 800 },
  { width: 1280, height: 800 },
]) {
  test(`a marshal sets their SMS PIN in My Profile at ${viewport.width} px`, async ({ page, request }, info) => {
    const marshal = await sessionOf(request, createUser('marshall'));
    await page.setViewportSize(viewport);
    await signInWithToken(page, marshal.token, marshal.user);
    await page.goto('/me');
    const section = page.getByTestId('sms-pin');
    await expect(section.getByRole('heading', { name: 'SMS PIN' })).toBeVisible({ timeout: 20_000 });
    const field = section.getByLabel('New PIN');

    await field.fill('12');
    await section.getByRole('button', { name: 'Save PIN' }).click();
    await expect(section.getByRole('alert')).toHaveText('Your PIN must be 4 to 8 digits.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    // Letters cannot be typed; the PIN is saved and the field empties.
    await field.fill('48x21');
    await expect(field).toHaveValue('4821');
    await section.getByRole('button', { name: 'Save PIN' }).click();
    await expect(section.getByRole('status')).toHaveText('Your SMS PIN is set.');
    await expect(field).toHaveValue('');
    await expect(section.getByRole('alert')).toHaveCount(0);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`sms-pin-${viewport.width}.png`), fullPage: true });
    await section.screenshot({ path: info.outputPath(`sms-pin-section-${viewport.width}.png`) });
    await expectNoSidewaysScroll(page);
    await expectNoViolations(page);
  });
}

test('a rider has no SMS PIN form', async ({ page, request }) => {
  const rider = await sessionOf(request, createUser('participant'));
  await signInWithToken(page, rider.token, rider.user);
  await page.goto('/me');
  await expect(page.getByTestId('notification-settings')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('sms-pin')).toHaveCount(0);
});
