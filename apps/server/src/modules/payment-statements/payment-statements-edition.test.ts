// A past edition's payment statements (DESIGN.md §9, §13): read with ?edition=, a statement
// still matches the receipts of its own edition (sent before that edition closed), not
// those of the edition that runs now; the current edition lists only its own statements.
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, injectAs, multipart, registerRider, rollOver } from '../../test/factories';
import { currentReceiptId, newReference, setReceipt } from '../receipts/receipt-test-helpers';

describe.each(DB_KINDS)('payment statements across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const get = (actor: Actor, url: string) => injectAs(t.app, actor, 'GET', url);

  it('matches a past statement to that edition’s receipts, read with ?edition=', async () => {
    const reference = newReference();
    const rider = await registerRider(t.app);
    const fileId = await currentReceiptId(t.database.db, rider.userId);
    await setReceipt(t.app, t.database.db, fileId, {
      reading: { referenceNumber: reference, amountCentavos: 300_000 },
    });
    const csv = [
      '"Date and Time","Description","Reference No.","Debit","Credit","Balance"',
      `"2026-03-12 10:15 AM","Received GCash from JUAN","${reference}","","3,000.00","3,000.00"`,
    ].join('\r\n');
    const body = multipart({ preset: 'gcash' }, [
      { field: 'file', filename: 'history.csv', contentType: 'text/csv', data: Buffer.from(csv) },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/admin/payment-statements',
      ...body,
      headers: { ...body.headers, authorization: `Bearer ${marshall.token}` },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const statement = uploaded.json().data;
    expect(statement.matchedCount).toBe(1);

    const { past } = await rollOver(t.app, admin);

    const then = await get(marshall, `/api/admin/payment-statements/${statement.id}?edition=${past}`);
    expect(then.statusCode, then.body).toBe(200);
    expect(then.json().data).toEqual(statement);
    const listed = await get(marshall, `/api/admin/payment-statements?edition=${past}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.find((s: { id: string }) => s.id === statement.id)).toMatchObject({ matchedCount: 1 });
    // This year's list is this year's statements only.
    const now = await get(marshall, '/api/admin/payment-statements');
    expect(now.json().data.some((s: { id: string }) => s.id === statement.id)).toBe(false);
  });
});
