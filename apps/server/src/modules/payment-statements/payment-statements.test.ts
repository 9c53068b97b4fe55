// Payment statements: CSV and PDF exports read into rows, matched to receipts by reference
// and amount, refused whole when they cannot be read, and only for staff who verify.
import { count } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { paymentStatements } from '../../db/schema/receipts';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, bearer, multipart, registerRider } from '../../test/factories';
import { currentReceiptId, newReference, setReceipt } from '../receipts/receipt-test-helpers';
import { parseAmount, parseStatementDate } from './statement-rows';
import { csvTable } from './statement-table';

describe('statement parsing', () => {
  it('reads a CSV with a BOM, semicolons, quoted fields and a title line', () => {
    const csv =
      '\ufeffAccount 0917 123 4567\r\nDate;Description;"Ref; No";Amount\r\n2026-03-01;"Paid ""fast""\nby Juan";123;"1.500,00"\r\n';
    const table = csvTable(Buffer.from(csv));
    expect(table.headers).toEqual(['Date', 'Description', 'Ref; No', 'Amount']);
    expect(table.rows).toEqual([
      {
        line: 1,
        cells: { Date: '2026-03-01', Description: 'Paid "fast"\nby Juan', 'Ref; No': '123', Amount: '1.500,00' },
      },
    ]);
  });

  it('reads amounts and dates as the exports print them', () => {
    expect(parseAmount('PHP 3,000.00')).toBe(300_000);
    expect(parseAmount('₱2,500')).toBe(250_000);
    expect(parseAmount('1.500,50')).toBe(150_050);
    expect(parseAmount('(1,000.00)')).toBe(-100_000);
    expect(parseAmount('-250')).toBe(-25_000);
    expect(parseAmount('')).toBeNull();
    expect(parseStatementDate('2026-03-12 10:15 AM')?.toISOString()).toBe('2026-03-12T02:15:00.000Z');
    expect(parseStatementDate('03/12/2026 10:15 PM')?.toISOString()).toBe('2026-03-12T14:15:00.000Z');
    expect(parseStatementDate('Mar 12, 2026 12:05 AM')?.toISOString()).toBe('2026-03-11T16:05:00.000Z');
    expect(parseStatementDate('12 Mar 2026')?.toISOString()).toBe('2026-03-11T16:00:00.000Z');
    expect(parseStatementDate('soon')).toBeNull();
  });
});

/** GCash's emailed statement: a PDF whose text layer is a table under a header row. */
async function gcashPdf(rows: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([842, 595]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const xs = [30, 150, 360, 470, 560, 650];
  page.drawText('GCash Transaction History', { x: 30, y: 560, size: 14, font });
  const header = ['Date and Time', 'Description', 'Reference No.', 'Debit', 'Credit', 'Balance'];
  for (const [r, cells] of [header, ...rows].entries()) {
    for (const [c, cell] of cells.entries()) {
      if (cell) page.drawText(cell, { x: xs[c] as number, y: 520 - r * 20, size: 9, font });
    }
  }
  return Buffer.from(await doc.save());
}

describe.each(DB_KINDS)('payment statements (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall', 'officer');
  const { marshall, officer } = t.staff;

  const upload = (actor: Actor, fields: Record<string, string>, data: Buffer, filename = 'history.csv') => {
    const body = multipart(fields, [{ field: 'file', filename, contentType: 'text/csv', data }]);
    return t.app.inject({
      method: 'POST',
      url: '/api/admin/payment-statements',
      ...body,
      headers: { ...body.headers, ...bearer(actor.token) },
    });
  };
  const statementCount = async () => Number((await t.database.db.select({ n: count() }).from(paymentStatements))[0]?.n);

  /** A rider whose receipt reads the reference and amount (centavos) given. */
  async function paidRider(referenceNumber: string, amountCentavos: number) {
    const r = await registerRider(t.app);
    const fileId = await currentReceiptId(t.database.db, r.userId);
    await setReceipt(t.app, t.database.db, fileId, { reading: { referenceNumber, amountCentavos } });
    return { ...r, fileId };
  }

  it('matches a GCash CSV to receipts by reference and amount; lists what matched nothing', async () => {
    const [a, b, c] = [newReference(), newReference(), newReference()];
    const matched = await paidRider(a, 300_000);
    const wrongAmount = await paidRider(b, 250_000);
    const csv = [
      '\ufeff"Date and Time","Description","Reference No.","Debit","Credit","Balance"',
      `"2026-03-12 10:15 AM","Received GCash from JUAN","${a.slice(0, 4)} ${a.slice(4, 7)} ${a.slice(7)}","","3,000.00","3,000.00"`,
      `"2026-03-12 11:00 AM","Received GCash from PEDRO","${b}","","3,000.00","6,000.00"`,
      `"2026-03-13 09:00 AM","Cash out","${newReference()}","500.00","","5,500.00"`,
      `"2026-03-14 08:30 PM","Received GCash from ANA","${c}","","3,000.00","8,500.00"`,
    ].join('\r\n');
    const res = await upload(marshall, { preset: 'gcash' }, Buffer.from(csv));
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    // The cash out is money out: not a row a receipt could match.
    expect(data).toMatchObject({ preset: 'gcash', rowCount: 3, matchedCount: 1, originalName: 'history.csv' });
    expect(data.coversFrom).toBe('2026-03-12T02:15:00.000Z');
    expect(data.coversTo).toBe('2026-03-14T12:30:00.000Z');
    expect(data.matched).toEqual([
      expect.objectContaining({
        line: 1,
        referenceNumber: a,
        amount: 3000,
        match: expect.objectContaining({
          fileId: matched.fileId,
          userId: matched.userId,
          riderNumber: matched.riderNumber,
        }),
      }),
    ]);
    expect(data.unmatched.map((r: { line: number; referenceNumber: string }) => [r.line, r.referenceNumber])).toEqual([
      [2, b],
      [4, c],
    ]);
    expect(wrongAmount.fileId).toBeTruthy();

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/payment-statements/${data.id}`,
      headers: bearer(marshall.token),
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toEqual(data);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payment-statements',
      headers: bearer(marshall.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.find((s: { id: string }) => s.id === data.id)).toMatchObject({
      rowCount: 3,
      matchedCount: 1,
    });
  });

  it('reads a bank export with one signed amount column, and a custom mapping', async () => {
    const ref = newReference();
    const r = await paidRider(ref, 320_000);
    const bank = [
      'Transaction Date;Description;Reference Number;Amount',
      `03/15/2026;INSTAPAY IN;${ref};"3,200.00"`,
      '03/16/2026;ATM WITHDRAWAL;555;-1000.00',
    ].join('\n');
    const res = await upload(marshall, { preset: 'bank' }, Buffer.from(bank));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ rowCount: 1, matchedCount: 1 });
    expect(res.json().data.matched[0].match.userId).toBe(r.userId);

    const custom = ['When,Ref,Pesos,Note', `2026-03-17,${ref},3200,from rider`].join('\n');
    const mapping = JSON.stringify({ referenceNumber: 'Ref', amount: 'Pesos', paidAt: 'When', description: 'Note' });
    const res2 = await upload(marshall, { preset: 'custom', mapping }, Buffer.from(custom));
    expect(res2.statusCode, res2.body).toBe(201);
    expect(res2.json().data).toMatchObject({ rowCount: 1, matchedCount: 1 });
    expect(res2.json().data.matched[0].description).toBe('from rider');
  });

  it('reads GCash’s PDF statement from its text layer into the same rows', async () => {
    const ref = newReference();
    const r = await paidRider(ref, 300_000);
    const other = newReference();
    const pdf = await gcashPdf([
      ['2026-03-20 09:41 AM', 'Received GCash from JUAN', ref, '', '3,000.00', '3,000.00'],
      ['2026-03-20 01:02 PM', 'Payment to MERALCO', newReference(), '1,200.00', '', '1,800.00'],
      ['2026-03-21 07:30 PM', 'Received GCash from ANA', other, '', '2,500.00', '4,300.00'],
    ]);
    const res = await upload(marshall, { preset: 'gcash' }, pdf, 'statement.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ rowCount: 2, matchedCount: 1 });
    expect(data.matched[0]).toMatchObject({ referenceNumber: ref, amount: 3000, match: { userId: r.userId } });
    expect(data.unmatched).toEqual([
      expect.objectContaining({ referenceNumber: other, amount: 2500, paidAt: '2026-03-21T11:30:00.000Z' }),
    ]);
  });

  it('refuses a file it cannot read with a clear 400, storing nothing', async () => {
    const before = await statementCount();
    const blank = await PDFDocument.create();
    blank.addPage([200, 200]);
    const cases: Array<[Record<string, string>, Buffer, string]> = [
      [{ preset: 'gcash' }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), 'not a CSV'],
      [{ preset: 'gcash' }, Buffer.from('Name,Phone,Email\nJuan,0917,j@x.ph\n'), 'does not look like a GCash export'],
      [{ preset: 'custom' }, Buffer.from('A,B,C\n1,2,3\n'), 'custom statement needs a mapping'],
      [{ preset: 'custom', mapping: '{nope' }, Buffer.from('A,B,C\n1,2,3\n'), 'mapping must be JSON'],
      [
        { preset: 'custom', mapping: JSON.stringify({ referenceNumber: 'X', amount: 'B', paidAt: 'C' }) },
        Buffer.from('A,B,C\n1,2,3\n'),
        'column "X" is not in the file',
      ],
      [{ preset: 'paypal' }, Buffer.from('A,B,C\n1,2,3\n'), "preset must be 'gcash', 'bank' or 'custom'"],
      [{ preset: 'gcash' }, Buffer.from('Date and Time,Description,Reference No.,Debit,Credit,Balance\n'), 'no rows'],
      [{ preset: 'gcash' }, Buffer.from(await blank.save()), 'no text to read'],
      [{ preset: 'gcash' }, Buffer.from('"Date and Time,Description\n1,2'), 'ends inside a quoted field'],
    ];
    for (const [fields, data, message] of cases) {
      const res = await upload(marshall, fields, data);
      expect(res.statusCode, `${message}: ${res.body}`).toBe(400);
      expect(res.json().message).toContain(message);
    }
    expect(await statementCount()).toBe(before);
  });

  it('is for staff who verify payments only', async () => {
    const before = await statementCount();
    const csv = Buffer.from(
      'Date and Time,Description,Reference No.,Debit,Credit,Balance\n2026-03-01,x,1,,1.00,1.00\n',
    );
    expect((await upload(officer, { preset: 'gcash' }, csv)).statusCode).toBe(403);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payment-statements',
      headers: bearer(officer.token),
    });
    expect(list.statusCode).toBe(403);
    expect(await statementCount()).toBe(before);
  });
});
