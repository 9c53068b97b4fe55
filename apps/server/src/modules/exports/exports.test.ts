// The organisers' spreadsheets against seeded riders: each export's rows and numbers, the
// insurers' category split, size totals with custom sizes, formula injection neutralised
// in CSV and in XLSX (read back with exceljs), who may download, and the download log.
import { and, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider, staff } from '../../test/factories';
import { firstRow, present } from '../../test/present';
import { neutralise, toCsv } from './spreadsheet';

/** RFC 4180 the strict way: quoted fields may hold commas, quotes ("") and CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  expect(field, 'the file ends with CRLF').toBe('');
  return rows;
}

/** Rows as objects keyed by the header line. */
function records(rows: string[][]): Array<Record<string, string>> {
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(present(header).map((h, i) => [h, r[i] ?? ''])));
}

const REASON = 'Checking the list before the rally';
const EVIL_KIT = '=HYPERLINK("http://evil.example","click")';

describe.each(DB_KINDS)('exports (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  let developer: Actor;
  let officer: Actor;
  let pending: Actor;

  const get = (actor: Actor | null, url: string) =>
    t.app.inject({ method: 'GET', url, headers: actor ? bearer(actor.token) : {} });
  // Exports with sensitive columns ask why (export-reason.test.ts); the others ignore it.
  const csv = async (name: string, actor: Actor = admin) => {
    const res = await get(actor, `/api/admin/exports/${name}.csv?reason=${encodeURIComponent(REASON)}`);
    expect(res.statusCode, res.body).toBe(200);
    return { res, rows: records(parseCsv(res.rawPayload.toString('utf8').replace(/^\uFEFF/, ''))) };
  };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    developer = await staff(t.app, t.database.db, 'developer');
    officer = await staff(t.app, t.database.db, 'officer');
    const rider = (n: number, o: Record<string, string>) =>
      approvedRider(t.app, admin, { riderNumber: String(n), ...o });
    await rider(11, {
      firstName: 'Alon',
      category: 'lakambini',
      gender: 'female',
      kitName: EVIL_KIT,
      clubName: '@SUM(A1:A9)',
      address: '+63 Roxas Ave, Davao, "Poblacion"',
      emergencyContactName: '-Inay',
      tshirtSize: 'S',
      finisherSleeveSize: 'M',
      vestSize: 'L',
    });
    // A man choosing lakambini rides magani.
    await rider(12, {
      firstName: 'Bayani',
      category: 'lakambini',
      gender: 'male',
      tshirtSize: 'CUSTOM',
      customTshirtSize: 'slim 3xl',
      finisherSleeveSize: 'M',
      vestSize: 'XL',
    });
    await rider(13, {
      firstName: 'Crisanto',
      category: 'lakan-obr',
      tshirtSize: 'M',
      vestSize: 'CUSTOM',
      customVestSize: '60 chest',
    });
    await rider(14, { firstName: 'Dakila', category: 'bagani', tshirtSize: 'S', finisherSleeveSize: 'XS' });
    await rider(15, {
      firstName: 'Eleuterio',
      category: 'bagani-obr',
      tshirtSize: 'CUSTOM',
      customTshirtSize: ' Slim  3XL ',
    });
    pending = await registerRider(t.app, { riderNumber: '16', firstName: 'Pending', category: 'lakan' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes the masterlist as RFC 4180 CSV with a BOM, a dated attachment name and every rider', async () => {
    const { res, rows } = await csv('masterlist');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="masterlist-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(rows.map((r) => r['Rider #'])).toEqual(['11', '12', '13', '14', '15', '16']);
    const alon = present(rows[0]);
    expect(alon).toMatchObject({
      'Kit Name': `'${EVIL_KIT}`,
      'Team / Club': "'@SUM(A1:A9)",
      Address: `'+63 Roxas Ave, Davao, "Poblacion"`,
      'Emergency Contact': "'-Inay",
      Category: 'LAKAMBINI',
      Route: 'Lakambini/Magani',
      Verification: 'verified',
      Payment: 'Receipt Uploaded',
      'T-shirt': 'S',
    });
    expect(rows[1]).toMatchObject({ Category: 'MAGANI', Route: 'Lakambini/Magani', 'T-shirt': 'CUSTOM: slim 3xl' });
    expect(rows[5]).toMatchObject({ 'First Name': 'Pending', Verification: 'pending' });
    expect(res.headers['x-export-rows']).toBe('6');
  });

  it('splits the insurers’ lists by category, -obr with its base, verified riders only', async () => {
    const standard = (await csv('insurance-lakambini-lakan')).rows;
    expect(standard.map((r) => [r['Rider #'], r.Category])).toEqual([
      ['11', 'LAKAMBINI'],
      ['12', 'MAGANI'],
      ['13', 'LAKAN OBR'],
    ]);
    const bagani = (await csv('insurance-bagani')).rows;
    expect(bagani.map((r) => [r['Rider #'], r.Category])).toEqual([
      ['14', 'BAGANI'],
      ['15', 'BAGANI OBR'],
    ]);
    expect(bagani[0]).toMatchObject({
      'First Name': 'Dakila',
      'Kit Name': 'DATU OF THE SOUTH',
      Birthdate: '1990-05-17',
      Gender: 'Male',
      Address: 'Davao City',
      'Emergency Contact': 'Amihan Rider',
      'Emergency Number': '09181234567',
    });
  });

  it('totals the kit sizes of verified riders, custom sizes grouped, unset counted', async () => {
    const { rows } = await csv('sizes');
    const count = (item: string, size: string, custom = '') =>
      rows.find((r) => r.Item === item && r.Size === size && r['Custom Size'] === custom)?.Riders;
    expect(count('T-shirt', 'S')).toBe('2');
    expect(count('T-shirt', 'M')).toBe('1');
    expect(count('T-shirt', 'XL')).toBe('0');
    // 'slim 3xl' and ' Slim  3XL ' are one size, spelt as the first rider typed it.
    expect(count('T-shirt', 'CUSTOM', 'slim 3xl')).toBe('2');
    // The factory's default sizes: finisher sleeve M, vest XL.
    expect(count('Finisher Sleeve', 'M')).toBe('4');
    expect(count('Finisher Sleeve', 'XS')).toBe('1');
    expect(count('Vest', 'CUSTOM', '60 chest')).toBe('1');
    expect(count('Vest', 'XL')).toBe('3');
    expect(count('Vest', 'Not set')).toBe('0');
    // Each item adds up to the five verified riders (the pending one is not counted).
    for (const item of ['T-shirt', 'Finisher Sleeve', 'Vest']) {
      const total = rows.filter((r) => r.Item === item).reduce((sum, r) => sum + Number(r.Riders), 0);
      expect(total, item).toBe(5);
    }
  });

  it('lists every payment with method, amount, status and who verified it', async () => {
    const { rows } = await csv('payments');
    expect(rows).toHaveLength(6);
    const verified = rows.filter((r) => r.Status === 'verified');
    expect(verified).toHaveLength(5);
    for (const r of verified) {
      expect(r).toMatchObject({ Method: 'GCash', 'Verified By': 'Admin Account' });
      expect(r['Verified (Manila)']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(Number(r['Amount (PHP)'])).toBeGreaterThan(0);
    }
    expect(rows.find((r) => r['Rider #'] === '14')?.['Amount (PHP)']).toBe('3000');
    expect(rows.find((r) => r['Rider #'] === '16')).toMatchObject({
      Status: 'pending',
      'Verified By': '',
      'Verified (Manila)': '',
    });
  });

  it('writes XLSX that opens with text as text, numbers as numbers and formulas neutralised', async () => {
    const res = await get(marshall, `/api/admin/exports/masterlist.xlsx?reason=${encodeURIComponent(REASON)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="masterlist-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = present(workbook.worksheets[0]);
    expect(sheet.name).toBe('Participant Masterlist');
    expect(sheet.rowCount).toBe(7);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => header.indexOf(name) + 1;
    const alon = sheet.getRow(2);
    expect(alon.getCell(col('Rider #')).value).toBe(11);
    expect(alon.getCell(col('Kit Name')).value).toBe(`'${EVIL_KIT}`);
    expect(alon.getCell(col('Kit Name')).type).toBe(ExcelJS.ValueType.String);
    expect(alon.getCell(col('Team / Club')).value).toBe("'@SUM(A1:A9)");
    expect(alon.getCell(col('Registered (Manila)')).value).toBeInstanceOf(Date);
    // No cell anywhere in the file is a formula.
    sheet.eachRow((row) => {
      row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula));
    });

    const sizes = await get(developer, '/api/admin/exports/sizes.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(sizes.rawPayload as unknown as ArrayBuffer);
    const rows = present(book.worksheets[0]).getSheetValues().slice(2) as unknown[][];
    const custom = rows.find((r) => r[1] === 'T-shirt' && r[2] === 'CUSTOM');
    expect(custom?.[3]).toBe('slim 3xl');
    expect(custom?.[4]).toBe(2);
  });

  it('neutralises every formula start in both writers, and only those', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutralise(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutralise('Datu =1')).toBe('Datu =1');
    const text = toCsv(
      [
        { key: 'a', header: 'A' },
        { key: 'b', header: 'B' },
      ],
      [{ a: '\t=1', b: -5 }],
    ).toString('utf8');
    // Numbers are numbers: a negative amount is not text to neutralise.
    expect(text).toBe("\uFEFFA,B\r\n'\t=1,-5\r\n");
  });

  it('refuses officers and riders, and answers 404 for an unknown name or extension', async () => {
    for (const who of [officer, pending]) {
      expect((await get(who, '/api/admin/exports/masterlist.csv')).statusCode).toBe(403);
      expect((await get(who, '/api/admin/exports')).statusCode).toBe(403);
    }
    expect((await get(null, '/api/admin/exports/masterlist.csv')).statusCode).toBe(401);
    for (const file of ['nothing.csv', 'masterlist.pdf', 'masterlist', 'masterlist.csv.xlsx', '..%2Fmasterlist.csv']) {
      const res = await get(admin, `/api/admin/exports/${file}`);
      expect(res.statusCode, file).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'EXPORT_NOT_FOUND' });
      expect(res.json().message).toContain('masterlist, insurance-lakambini-lakan, insurance-bagani, sizes, payments');
    }
  });

  it('logs each download and shows the last one in the Reports list', async () => {
    await csv('insurance-bagani', marshall);
    const entry = firstRow(
      await t.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.type, 'export_downloaded'), eq(activities.actorId, marshall.userId)))
        .orderBy(desc(activities.createdAt))
        .limit(1),
    );
    expect(entry.metadata).toEqual({ export: 'insurance-bagani', format: 'csv', rows: 2 });
    expect(entry.description).toBe('Insurance: Bagani exported as CSV (2 rows)');
    expect(entry.actorName).toBe('Marshall Account');

    const list = await get(admin, '/api/admin/exports');
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data as Array<{ name: string; rows: number; lastDownloadedBy: string | null }>;
    expect(data.map((e) => e.name)).toEqual([
      'masterlist',
      'insurance-lakambini-lakan',
      'insurance-bagani',
      'sizes',
      'payments',
      'finishers',
      'dnf',
      'incidents',
    ]);
    expect(data.find((e) => e.name === 'insurance-bagani')).toMatchObject({
      rows: 2,
      lastDownloadedBy: 'Marshall Account',
    });
    expect(data.find((e) => e.name === 'masterlist')?.rows).toBe(6);
  });
});
