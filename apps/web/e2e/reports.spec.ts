// The organisers' toolkit end to end: the Reports tab downloads spreadsheets that open with
// the numbers right, and the QR Sticker Generator prints a sheet of the riders picked.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { bearer, sessionOf, signInWithToken } from './support/api';
import { expectNoSidewaysScroll, expectNoViolations } from './support/checks';
import { createUser } from './support/cli';
import { expect, test, toast } from './support/fixtures';
import { verifiedRiders } from './support/scanner';

test('an admin downloads the masterlist and the size totals from the Reports tab', async ({ page, request }, info) => {
  const admin = await sessionOf(request, createUser('admin'));
  const riders = await verifiedRiders(request, admin.token, 2);
  const list = await request.get('/api/admin/exports', { headers: bearer(admin.token) });
  const counts = Object.fromEntries(
    ((await list.json()).data as Array<{ name: string; rows: number }>).map((e) => [e.name, e.rows]),
  );

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=reports');
  await expect(page.getByRole('heading', { name: 'Reports', level: 2 })).toBeVisible();
  const masterlist = page.locator('[data-export="masterlist"]');
  await expect(masterlist.getByTestId('export-rows')).toHaveText(String(counts.masterlist));
  await page.screenshot({ path: info.outputPath('reports-1280.png'), fullPage: true });
  await expectNoViolations(page);

  const csvDownload = page.waitForEvent('download');
  await masterlist.getByRole('button', { name: 'Download Participant Masterlist as CSV' }).click();
  // It carries birthdates and emergency contacts: the reason is asked first (DESIGN.md §12).
  const why = page.getByRole('dialog', { name: 'Why this export?' });
  await why.getByLabel('Reason').fill('Checking the list before the rally');
  await why.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^masterlist-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync(await csv.path(), 'utf8');
  expect(text.startsWith('\uFEFFRider #,Kit Name,')).toBe(true);
  const lines = text.trimEnd().split('\r\n');
  expect(lines).toHaveLength(1 + Number(counts.masterlist));
  for (const r of riders) expect(lines.some((l) => l.startsWith(`${r.riderNumber},`))).toBe(true);
  await expect(toast(page, /Downloaded masterlist-/)).toBeVisible();
  await expect(masterlist.getByTestId('export-last')).toContainText('Just now');
  await expect(masterlist.getByTestId('export-last')).toContainText(`by ${admin.user.firstName}`);

  const sizes = page.locator('[data-export="sizes"]');
  const xlsxDownload = page.waitForEvent('download');
  await sizes.getByRole('button', { name: 'Download Kit Size Totals as Excel (XLSX)' }).click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toMatch(/^sizes-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const sheet = book.worksheets[0];
  expect(sheet?.name).toBe('Kit Size Totals');
  // The riders made here chose T-shirt L; every verified rider counts once per item.
  let tshirts = 0;
  let large = 0;
  sheet?.eachRow((row, n) => {
    if (n === 1 || row.getCell(1).value !== 'T-shirt') return;
    tshirts += Number(row.getCell(4).value);
    if (row.getCell(2).value === 'L') large = Number(row.getCell(4).value);
  });
  const verified = (await (await request.get('/api/admin/id-cards/stats', { headers: bearer(admin.token) })).json())
    .data.total_users;
  expect(tshirts).toBe(verified);
  expect(large).toBeGreaterThanOrEqual(2);

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(masterlist).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('reports-360.png'), fullPage: true });
  await expectNoViolations(page);
});

test('an officer has no Reports tab and the exports refuse them', async ({ page, request }) => {
  const officer = await sessionOf(request, createUser('officer'));
  const res = await request.get('/api/admin/exports/masterlist.csv', { headers: bearer(officer.token) });
  expect(res.status()).toBe(403);
  await signInWithToken(page, officer.token, officer.user);
  await page.goto('/admin?tab=reports');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('the QR Sticker Generator prints a sheet of the riders picked and counts them printed', async ({
  page,
  request,
}, info) => {
  const admin = await sessionOf(request, createUser('admin'));
  const [first, second] = await verifiedRiders(request, admin.token, 2);
  if (!first || !second) throw new Error('riders were not made');

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=id-cards');
  await expect(page.getByRole('heading', { name: 'QR Sticker Generator' })).toBeVisible();
  for (const r of [first, second]) {
    await page.getByLabel('Search by name, email, kit name or rider number').fill(String(r.riderNumber));
    const row = page.locator(`tr[data-user-id="${r.id}"]`);
    await row.getByRole('checkbox').check();
  }
  await expect(page.getByTestId('print-selected')).toHaveText('Print selected (2)');
  await page.screenshot({ path: info.outputPath('stickers-1280.png') });
  await expectNoViolations(page);

  const download = page.waitForEvent('download');
  await page.getByTestId('print-selected').click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^qr-stickers-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(
    readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await expect(toast(page, /Sticker sheet ready: 2 stickers/)).toBeVisible();
  await expect(page.getByTestId('print-selected')).toHaveText('Print selected (0)');
  // Both now show as printed.
  for (const r of [first, second]) {
    const detail = await request.get(`/api/admin/id-cards/user/${r.id}`, { headers: bearer(admin.token) });
    expect((await detail.json()).data.print_count).toBe(1);
  }

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(page.getByTestId('print-unprinted')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: info.outputPath('stickers-360.png'), fullPage: true });
});
