// The verification desk reads receipts (issue 44): two riders send the same GCash reference,
// one pays short; the desk shows what was read and the flags, Approve asks once, and a
// statement upload matches a receipt and lists the row that matches none. The receipts are
// drawn (server/src/test/receipt-images.ts) and read by the server's own background queue:
// every wait is on the screen, which the queue's events on the console's stream refresh.
import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { formatReference } from '@rally/shared/catalog/receipts';
import { drawReceipt } from '../../server/src/test/receipt-images';
import { logIn } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { deskRider } from './support/desk';
import { expect, test, toast } from './support/fixtures';

/** Reading runs in the background (OCR on two shared cores): allow it time, on the screen. */
const READ_TIMEOUT = 45_000;

const reference13 = () =>
  `${randomInt(1, 10)}${String(randomInt(0, 1e6)).padStart(6, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`;

/** A pending rider (support/desk.ts) whose GCash receipt says `pesos` under `reference`. */
async function receiptRider(
  request: APIRequestContext,
  batch: string,
  lastName: string,
  receipt: { reference: string; pesos: number; paidAt?: Date },
) {
  const image = await drawReceipt({
    style: 'gcash',
    reference: receipt.reference,
    amountCentavos: receipt.pesos * 100,
    // Inside the registration window: only the reference and the amount are under test.
    paidAt: receipt.paidAt ?? new Date(Date.now() - 60 * 60_000),
    recipient: 'MI** WA***** R.',
  });
  return deskRider(request, batch, lastName, image);
}

/** The pending list filtered by `search` (a batch, or a reference as printed). */
async function searchQueue(page: Page, search: string, rows: number) {
  const field = page.getByLabel('Search by code or name');
  await field.fill(search);
  await expect(page.locator('tbody tr')).toHaveCount(rows);
  await field.evaluate((el: HTMLElement) => el.blur());
}

const row = (page: Page, code: string) => page.locator(`tr[data-verification-code="${code}"]`);

test.use({ viewport: { width: 1280, height: 800 } });

test('the desk flags a duplicate reference and a short amount; Approve shows the flags and asks once', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const batch = `rdesk-${Date.now().toString(36)}`;
  const shared = reference13();
  const short = reference13();
  // The desk is open before the riders register: their rows, readings and flags reach it by
  // the console's event stream (the queue's `receipt` events), not by reloading.
  const marshall = createUser('marshall');
  await logIn(page, marshall.email, marshall.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin?tab=verifications');
  await searchQueue(page, batch, 0);

  const first = await receiptRider(request, batch, 'Alpha', { reference: shared, pesos: 2700 });
  const second = await receiptRider(request, batch, 'Bravo', { reference: shared, pesos: 2700 });
  const shortPaid = await receiptRider(request, batch, 'Charlie', { reference: short, pesos: 1500 });
  await expect(page.locator('tbody tr')).toHaveCount(3, { timeout: READ_TIMEOUT });

  // The readings land in the background; the rows show their flags once read.
  for (const rider of [second, shortPaid]) {
    await expect(row(page, rider.code).getByTestId('flag-count')).toBeVisible({ timeout: READ_TIMEOUT });
  }

  await page.screenshot({ path: test.info().outputPath('queue-1280.png') });

  // A reference typed as GCash prints it finds both receipts that carry it.
  await searchQueue(page, formatReference(shared), 2);
  await expect(row(page, first.code)).toBeVisible();
  await expect(row(page, second.code)).toBeVisible();
  await searchQueue(page, batch, 3);

  // The desk: what was read beside the image, and the duplicate flag naming the reference.
  await row(page, second.code).getByRole('button', { name: 'View Receipt' }).click();
  const desk = page.getByRole('dialog', { name: `Payment Receipt - ${second.name}` });
  await expect(desk.getByRole('img', { name: `Payment receipt of ${second.name}` })).toBeVisible();
  const reading = desk.getByTestId('receipt-reading');
  await expect(reading).toHaveAttribute('data-reading-status', 'read');
  await expect(reading).toContainText(formatReference(shared));
  await expect(reading).toContainText('₱2,700.00');
  const flags = desk.getByTestId('receipt-flags');
  const duplicate = flags.locator('[data-flag-kind="duplicate_reference"]');
  await expect(duplicate).toBeVisible();
  await expect(duplicate).toContainText(formatReference(shared));
  await expectNoViolations(page);
  await page.screenshot({ path: test.info().outputPath('receipt-desk-1280.png') });
  await page.setViewportSize({ width: 360, height: 740 });
  await flags.scrollIntoViewIfNeeded();
  await expect(flags).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('receipt-desk-360.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Approve shows the flags in its one confirmation; confirming approves, with no second ask.
  await desk.getByRole('button', { name: 'Approve', exact: true }).click();
  const confirm = desk.getByTestId('approve-confirm');
  await expect(confirm.getByRole('heading', { name: `Approve ${second.name} anyway?` })).toBeVisible();
  await expect(confirm).toContainText(formatReference(shared));
  await page.screenshot({ path: test.info().outputPath('approve-anyway-1280.png') });
  await confirm.getByRole('button', { name: /Approve anyway/ }).click();
  await expect(toast(page, 'User approved successfully!').first()).toBeVisible();
  await expect(page.getByTestId('approve-confirm')).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: /Payment Receipt/ })).toBeHidden();
  await expect(row(page, second.code)).toHaveCount(0);

  // The short payment: the table's Approve goes through the desk's confirmation with the flag.
  await row(page, shortPaid.code)
    .getByRole('button', { name: `Approve ${shortPaid.name}` })
    .click();
  const shortDesk = page.getByRole('dialog', { name: `Payment Receipt - ${shortPaid.name}` });
  const shortConfirm = shortDesk.getByTestId('approve-confirm');
  await expect(shortConfirm).toHaveAttribute('data-flagged', 'true');
  await expect(shortConfirm.locator('[data-flag-kind="amount_mismatch"]')).toBeVisible();
  await expect(shortDesk.getByTestId('receipt-reading')).toContainText('₱1,500.00');
  await shortConfirm.getByRole('button', { name: /Cancel/ }).click();
  await expect(shortConfirm).toBeHidden();
  await expect(shortDesk.getByTestId('receipt-flags').locator('[data-flag-kind="amount_mismatch"]')).toBeVisible();
  await expect(row(page, shortPaid.code)).toHaveCount(1);

  // Staff correct a reading: the server's refusal shows beside its field and nothing typed is lost.
  await shortDesk
    .getByTestId('receipt-reading')
    .getByRole('button', { name: /Edit|Type it in/ })
    .click();
  const form = shortDesk.getByTestId('reading-form');
  await form.getByLabel('Reference number').fill('12-ab');
  await form.getByLabel('Recipient').fill('MI** WA***** R.');
  await form.getByRole('button', { name: 'Save reading' }).click();
  await expect(form.getByText(/referenceNumber must be digits/)).toBeVisible();
  await expect(form.getByLabel('Recipient')).toHaveValue('MI** WA***** R.');
  await expectNoViolations(page);
  await form.getByLabel('Reference number').fill(formatReference(short));
  await form.getByRole('button', { name: 'Save reading' }).click();
  await expect(form).toBeHidden();
  await expect(shortDesk.getByTestId('receipt-reading')).toContainText(formatReference(short));
  await expect(shortDesk.getByTestId('receipt-reading')).toContainText('Typed in by staff');
});

test('a statement upload matches a receipt and lists the row that matches none', async ({ page, request }) => {
  test.setTimeout(120_000);
  const batch = `rstmt-${Date.now().toString(36)}`;
  const paidRef = reference13();
  const strayRef = reference13();
  const rider = await receiptRider(request, batch, 'Delta', { reference: paidRef, pesos: 2700 });

  const marshall = createUser('marshall');
  await logIn(page, marshall.email, marshall.password);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/admin?tab=verifications');
  await searchQueue(page, batch, 1);
  // Matching needs the receipt read: wait for it on the desk.
  await row(page, rider.code).getByRole('button', { name: 'View Receipt' }).click();
  const desk = page.getByRole('dialog', { name: `Payment Receipt - ${rider.name}` });
  await expect(desk.getByTestId('receipt-reading')).toContainText(formatReference(paidRef), {
    timeout: READ_TIMEOUT,
  });
  await page.keyboard.press('Escape');
  await expect(desk).toBeHidden();

  // GCash's export: one payment matching the receipt, one that matches nobody.
  const day = new Date(Date.now() - 60 * 60_000);
  const mmddyyyy = `${String(day.getMonth() + 1).padStart(2, '0')}/${String(day.getDate()).padStart(2, '0')}/${day.getFullYear()}`;
  const csv = [
    'Date and Time,Description,Reference No.,Amount',
    `${mmddyyyy} 09:15 AM,Received GCash from Desk Delta,${paidRef},2700.00`,
    `${mmddyyyy} 10:40 AM,Received GCash from an unknown payer,${strayRef},1500.00`,
  ].join('\n');
  const panel = page.getByTestId('payment-statements');
  await panel.getByLabel('Statement file (CSV or PDF)').setInputFiles({
    name: `${batch}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await panel.getByLabel('Source').selectOption('gcash');
  await panel.getByRole('button', { name: 'Upload statement' }).click();

  const matched = panel.getByTestId('statement-matched');
  const unmatched = panel.getByTestId('statement-unmatched');
  await expect(matched.locator('li').filter({ hasText: formatReference(paidRef) })).toContainText(rider.name);
  await expect(unmatched.locator('li').filter({ hasText: formatReference(strayRef) })).toContainText('₱1,500.00');
  await expect(panel.getByRole('button', { name: new RegExp(`${batch}\\.csv`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await panel.scrollIntoViewIfNeeded();
  await expectNoViolations(page);
  await panel.screenshot({ path: test.info().outputPath('statements-1280.png') });
  await page.setViewportSize({ width: 360, height: 740 });
  await expectNoSidewaysScroll(page);
  await panel.screenshot({ path: test.info().outputPath('statements-360.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The queue now says the receipt is in the statement.
  await expect(row(page, rider.code).getByTestId('in-statement')).toBeVisible();
});
