// The verification desk (issue 18): a verifier clears a queue from the keyboard without
// leaving the receipt, and a rejected rider sees why and sends a new receipt.
import type { Page } from '@playwright/test';
import { logIn } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { deskRider } from './support/desk';
import { PASSWORD } from './support/env';
import { expect, test, toast } from './support/fixtures';
import { uniqueImageFixture } from './support/images';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
] as const;

/** Opens the queue filtered to one batch, then leaves the search box so shortcuts work. */
async function openQueue(page: Page, batch: string, rows: number) {
  await page.goto('/admin?tab=verifications');
  const search = page.getByLabel('Search by code or name');
  await search.fill(batch);
  await expect(page.locator('tbody tr')).toHaveCount(rows);
  await search.evaluate((el: HTMLElement) => el.blur());
}

for (const viewport of VIEWPORTS) {
  test.describe(viewport.name, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a verifier clears the queue from the keyboard without leaving the receipt', async ({ page, request }) => {
      const batch = `desk-${viewport.name}-${Date.now().toString(36)}`;
      const riders = [];
      for (const last of ['One', 'Two', 'Three', 'Four']) riders.push(await deskRider(request, batch, last));
      const marshall = createUser('marshall');
      await logIn(page, marshall.email, marshall.password);
      await expect(page).not.toHaveURL(/\/login$/);
      await openQueue(page, batch, 4);

      // j/k move the cursor over the list.
      const selected = page.locator('tbody tr[data-selected]');
      await expect(selected).toHaveAttribute('data-verification-code', riders[0]?.code ?? '');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await expect(selected).toHaveAttribute('data-verification-code', riders[2]?.code ?? '');
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      await expect(selected).toHaveAttribute('data-verification-code', riders[0]?.code ?? '');

      // o opens the receipt beside what it must match.
      await page.keyboard.press('o');
      const desk = page.getByRole('dialog', { name: 'Payment Receipt - Desk One' });
      await expect(desk).toBeVisible();
      const image = desk.getByRole('img', { name: 'Payment receipt of Desk One' });
      await expect(image).toBeVisible();
      await expect(desk.getByText('LAKAN', { exact: true })).toBeVisible();
      await expect(desk.getByText('Matches the LAKAN price')).toBeVisible();
      await expect(desk.getByText('₱2,700')).toBeVisible();
      await expect(desk.getByText('GCash')).toBeVisible();

      // Zoom and rotate from the keyboard; the zoomed receipt grows and scrolls in its box.
      const before = await image.boundingBox();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await expect(image).toHaveAttribute('data-zoom', '2');
      await page.keyboard.press('-');
      await expect(image).toHaveAttribute('data-zoom', '1.5');
      const zoomed = await image.boundingBox();
      expect(zoomed && before && zoomed.height).toBeGreaterThan((before?.height ?? 0) * 1.4);
      await page.keyboard.press('Shift+R');
      await expect(image).toHaveAttribute('data-rotation', '90');
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`desk-receipt-${viewport.width}.png`) });

      // Arrows walk the queue while the receipt is open.
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Two' })).toBeVisible();
      await page.keyboard.press('ArrowUp');
      await expect(desk).toBeVisible();

      // r, one tap on a reason, Enter: rejected with that reason; the next rider is shown.
      await page.keyboard.press('r');
      const form = desk.getByTestId('reject-form');
      await expect(form).toBeVisible();
      await page.keyboard.press('1');
      await expect(form.getByRole('button', { name: /Receipt unreadable/ })).toHaveAttribute('aria-pressed', 'true');
      await expectNoViolations(page);
      await page.screenshot({ path: test.info().outputPath(`desk-reject-${viewport.width}.png`) });
      await page.keyboard.press('Enter');
      await expect(toast(page, 'User rejected successfully!').first()).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Two' })).toBeVisible();

      // a + Enter approves; twice more clears the rest of the batch.
      await page.keyboard.press('a');
      await expect(page.getByTestId('approve-confirm')).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Three' })).toBeVisible();
      await page.keyboard.press('a');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Four' })).toBeVisible();
      // Escape backs out of a confirmation without closing the desk.
      await page.keyboard.press('r');
      await expect(page.getByTestId('reject-form')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('reject-form')).toBeHidden();
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Four' })).toBeVisible();
      await page.keyboard.press('r');
      await page.keyboard.press('3');
      await page.keyboard.press('Enter');

      await expect(page.getByRole('dialog', { name: /Payment Receipt/ })).toBeHidden();
      await expect(page.getByText('No pending verifications found.')).toBeVisible();
      const history = page.getByTestId('verification-history');
      await expect(history.locator('li').filter({ hasText: riders[0]?.code ?? '' })).toContainText(
        'Receipt unreadable',
      );
      await expect(history.locator('li').filter({ hasText: riders[3]?.code ?? '' })).toContainText(
        'Reference number missing',
      );
      await expect(history.locator('li').filter({ hasText: riders[1]?.code ?? '' })).toContainText(
        /approved|verified/i,
      );
      await expectNoSidewaysScroll(page);
    });

    test('? lists the shortcuts, and shortcuts stay quiet while typing', async ({ page, request }) => {
      const batch = `deskkeys-${viewport.name}-${Date.now().toString(36)}`;
      await deskRider(request, batch, 'Solo');
      const admin = createUser('admin');
      await logIn(page, admin.email, admin.password);
      await expect(page).not.toHaveURL(/\/login$/);
      await openQueue(page, batch, 1);

      // Typing in the search box neither opens the desk nor the overlay.
      const search = page.getByLabel('Search by code or name');
      await search.focus();
      await page.keyboard.type('?o');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await search.fill(batch);
      await search.evaluate((el: HTMLElement) => el.blur());

      await page.keyboard.press('?');
      const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(overlay).toBeVisible();
      for (const what of ['Next rider', 'Approve (asks to confirm)', 'Reject (asks for a reason)', 'Zoom the receipt'])
        await expect(overlay.getByText(what, { exact: false })).toBeVisible();
      await expectNoViolations(page);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`desk-shortcuts-${viewport.width}.png`) });
      await page.keyboard.press('Escape');
      await expect(overlay).toBeHidden();

      // The page itself, with the desk open, passes axe and fits the phone.
      await expectNoViolations(page);
      await page.keyboard.press('o');
      await expect(page.getByRole('dialog', { name: 'Payment Receipt - Desk Solo' })).toBeVisible();
      await expect(page.getByRole('img', { name: 'Payment receipt of Desk Solo' })).toBeVisible();
      await expectNoViolations(page);
      await expectNoSidewaysScroll(page);
    });
  });
}

test('the reject-reason round trip: staff reject with a reason, the rider sends a new receipt, the queue has them again', async ({
  browser,
  page,
  request,
}) => {
  const batch = `deskround-${Date.now().toString(36)}`;
  const rider = await deskRider(request, batch, 'Returner');
  const marshall = createUser('marshall');
  await logIn(page, marshall.email, marshall.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await openQueue(page, batch, 1);

  // The row's Reject asks for the reason the rider will be shown.
  await page
    .locator(`tr[data-verification-code="${rider.code}"]`)
    .getByRole('button', { name: /^Reject / })
    .click();
  const form = page.getByTestId('reject-form');
  await form.getByRole('button', { name: /Amount does not match/ }).click();
  await form.getByLabel('Details (optional)').fill('Paid 2,500; Lakan is 2,700');
  await form.getByRole('button', { name: /Reject rider/ }).click();
  await expect(toast(page, 'User rejected successfully!')).toBeVisible();
  await expect(page.getByText('No pending verifications found.')).toBeVisible();

  // The rider, on their phone, sees why and sends a new receipt.
  const riderContext = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const riderPage = await riderContext.newPage();
  await logIn(riderPage, rider.email, PASSWORD);
  await expect(riderPage).not.toHaveURL(/\/login$/);
  await riderPage.goto('/verify');
  await expect(riderPage.getByRole('heading', { name: 'VERIFICATION REJECTED' })).toBeVisible();
  const reason = riderPage.getByTestId('rejection-reason');
  await expect(reason).toContainText('Amount does not match. Paid 2,500; Lakan is 2,700');
  await expectNoViolations(riderPage);
  await expectNoSidewaysScroll(riderPage);
  await riderPage.screenshot({ path: test.info().outputPath('verify-rejected-360.png'), fullPage: true });

  // A wrong type is refused with the spec's message before anything is sent.
  const input = riderPage.getByTestId('resubmit-receipt-input');
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(
    riderPage.getByRole('alert').filter({ hasText: 'Please select an image (JPG, PNG, GIF) or PDF file' }),
  ).toBeVisible();
  await input.setInputFiles({ name: 'new-receipt.png', mimeType: 'image/png', buffer: uniqueImageFixture(300, 200) });
  await riderPage.getByRole('button', { name: 'Send new receipt' }).click();
  await expect(toast(riderPage, 'New receipt sent; your verification is pending again')).toBeVisible();
  await expect(riderPage.getByRole('heading', { name: 'VERIFICATION PENDING' })).toBeVisible();
  await expect(riderPage.getByTestId('rejection-reason')).toBeHidden();
  await riderContext.close();

  // Back in the staff's queue with the earlier reason and receipt beside the new one.
  await openQueue(page, batch, 1);
  await page.keyboard.press('o');
  const desk = page.getByRole('dialog', { name: 'Payment Receipt - Desk Returner' });
  await expect(desk).toBeVisible();
  await expect(desk.getByText('Amount does not match. Paid 2,500; Lakan is 2,700')).toBeVisible();
  await expect(desk.getByRole('link', { name: /Receipt replaced/ })).toBeVisible();
  const image = desk.getByRole('img', { name: 'Payment receipt of Desk Returner' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(300);
  await expectNoViolations(page);
});
