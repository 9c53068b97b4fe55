// Staff typing or correcting a reading (PATCH …/reading), who may, and the reader never
// overwriting what staff typed; a PDF receipt read from its text layer.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { receiptReadings } from '../../db/schema/receipts';
import { publishEvent } from '../../lib/event-bus';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, bearer, registerRider } from '../../test/factories';
import { drawReceipt } from '../../test/receipt-images';
import { openSse, type SseConnection, waitLive } from '../../test/sse-client';
import { readReceiptFile } from './receipt-reading.service';
import { currentReceiptId, newReference, setReceipt, waitForReadJobs } from './receipt-test-helpers';

describe.each(DB_KINDS)('the desk hears a receipt read (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'officer');
  const open: SseConnection[] = [];
  let url = '';
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}/api/admin/event/stream`;
  });
  afterAll(() => {
    for (const c of open) c.close();
  });

  it('pushes a receipt event, ids only, to holders of verify_users and no one else', async () => {
    const admin = await openSse(url, t.staff.admin.token);
    const officer = await openSse(url, t.staff.officer.token);
    open.push(admin, officer);
    await Promise.all([waitLive(admin), waitLive(officer)]);
    const r = await registerRider(t.app);
    const fileId = await currentReceiptId(t.database.db, r.userId);
    await waitForReadJobs(t.app, t.database.db, [fileId]);
    await readReceiptFile(
      t.database.db,
      fileId,
      await receiptPdf(['Sent via GCash', 'Amount 3,000.00', 'Ref No. 1001 543 610110 Mar 12, 2026 10:15 AM']),
    );
    const event = await admin.waitFor((e) => e.event === 'receipt' && e.data.includes(fileId));
    expect(JSON.parse(event.data)).toEqual({ userId: r.userId, fileId, kind: 'payment_receipt' });
    // A marker after it: the officer's stream has had its chance to carry the receipt event.
    const marker = randomUUID();
    await t.database.db.transaction((tx) =>
      publishEvent(tx, 'course', { change: marker, riderId: null, riderNumber: null, kitName: null }),
    );
    await officer.waitFor((e) => e.event === 'course' && e.data.includes(marker));
    expect(officer.events.some((e) => e.event === 'receipt')).toBe(false);
  });
});

/** A receipt saved as a PDF, with its text drawn as a text layer. */
async function receiptPdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 600]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, line] of lines.entries()) page.drawText(line, { x: 30, y: 540 - i * 24, size: 12, font });
  return Buffer.from(await doc.save());
}

describe.each(DB_KINDS)('receipt readings (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall', 'officer');
  const { marshall, officer } = t.staff;

  async function pendingRider() {
    const r = await registerRider(t.app);
    const fileId = await currentReceiptId(t.database.db, r.userId);
    await setReceipt(t.app, t.database.db, fileId, { reading: { status: 'unreadable' } });
    const [v] = await t.database.db.select({ id: entries.id }).from(entries).where(eq(entries.userId, r.userId));
    return { ...r, fileId, verificationId: v?.id as string };
  }
  const patch = (actor: Actor, id: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/admin/verifications/${id}/reading`,
      headers: bearer(actor.token),
      payload: payload as object,
    });
  const readingOf = async (fileId: string) =>
    (await t.database.db.select().from(receiptReadings).where(eq(receiptReadings.fileId, fileId)))[0];

  it('lets staff type what could not be read: digits stored, who and when, audited', async () => {
    const r = await pendingRider();
    const reference = newReference();
    const printed = `${reference.slice(0, 4)} ${reference.slice(4, 7)} ${reference.slice(7)}`;
    const res = await patch(marshall, r.verificationId, { referenceNumber: printed, amount: 3000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      fileId: r.fileId,
      reading: {
        status: 'read',
        referenceNumber: reference,
        amount: 3000,
        correctedBy: marshall.userId,
        confidence: { referenceNumber: 1, amount: 1, paidAt: null },
      },
    });
    expect(res.json().data.reading.correctedAt).toBeTruthy();
    const row = await readingOf(r.fileId);
    expect(row).toMatchObject({ referenceNumber: reference, amountCentavos: 300_000, correctedBy: marshall.userId });
    const acts = await t.database.db.select().from(activities).where(eq(activities.type, 'receipt_corrected'));
    const act = acts.find((a) => a.userId === r.userId);
    expect(act?.actorId).toBe(marshall.userId);
    expect(act?.details).toContain(`referenceNumber ${reference}`);
  });

  it('refuses a bad correction with a clear 400 and changes nothing', async () => {
    const r = await pendingRider();
    const before = await readingOf(r.fileId);
    const cases: Array<[unknown, string]> = [
      [{ amount: -5 }, 'amount cannot be negative'],
      [{ amount: 'lots' }, 'amount must be a number'],
      [{ referenceNumber: 'ABC-DEF-GHI' }, 'referenceNumber must be digits (spaces and dashes allowed)'],
      [{ paidAt: 'yesterday' }, 'paidAt must be an ISO date and time'],
      [{ colour: 'blue' }, 'colour'],
      [{}, 'Send at least one of referenceNumber, amount, paidAt or recipient'],
    ];
    for (const [payload, message] of cases) {
      const res = await patch(marshall, r.verificationId, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().success).toBe(false);
      expect(res.json().message).toContain(message);
    }
    expect(await readingOf(r.fileId)).toEqual(before);
    const unknown = await patch(marshall, '00000000-0000-4000-8000-000000000000', { amount: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('VERIFICATION_NOT_FOUND');
  });

  it('is for staff who verify payments only', async () => {
    const r = await pendingRider();
    const before = await readingOf(r.fileId);
    const byOfficer = await patch(officer, r.verificationId, { amount: 1 });
    expect(byOfficer.statusCode).toBe(403);
    const byRider = await patch(r, r.verificationId, { amount: 1 });
    expect(byRider.statusCode).toBe(403);
    const check = await t.app.inject({
      method: 'GET',
      url: `/api/admin/verifications/${r.verificationId}/receipt-check`,
      headers: bearer(officer.token),
    });
    expect(check.statusCode).toBe(403);
    expect(await readingOf(r.fileId)).toEqual(before);
  });

  it('reads a receipt image: reference, amount and date stored with their confidences', async () => {
    const r = await pendingRider();
    const reference = newReference();
    const paidAt = new Date('2026-03-12T10:15:00+08:00');
    const image = await drawReceipt({
      style: 'gcash',
      reference,
      amountCentavos: 300_000,
      paidAt,
      recipient: 'JU** DE* C.',
    });
    await readReceiptFile(t.database.db, r.fileId, image);
    const row = await readingOf(r.fileId);
    expect(row).toMatchObject({ status: 'read', referenceNumber: reference, amountCentavos: 300_000, paidAt });
    expect(row?.confidence.referenceNumber).toBeGreaterThan(0.5);
    expect(row?.text).toContain(reference.slice(7));
    const check = await t.app.inject({
      method: 'GET',
      url: `/api/admin/verifications/${r.verificationId}/receipt-check`,
      headers: bearer(marshall.token),
    });
    expect(check.json().data.reading).toMatchObject({ status: 'read', referenceNumber: reference, amount: 3000 });
  });

  it('reads a PDF receipt’s text layer, and never overwrites what staff typed', async () => {
    const r = await pendingRider();
    const pdf = await receiptPdf([
      'GCash',
      'Express Send',
      'Sent via GCash',
      'JU** DE* C.',
      '+63 917 *** 4321',
      'Amount 3,000.00',
      'Total Amount Sent PHP 3,000.00',
      'Ref No. 1001 543 610110 Mar 12, 2026 10:15 AM',
    ]);
    await readReceiptFile(t.database.db, r.fileId, pdf);
    const read = await readingOf(r.fileId);
    expect(read).toMatchObject({ status: 'read', referenceNumber: '1001543610110', amountCentavos: 300_000 });
    expect(read?.text).toContain('Express Send');

    // Staff correct the amount; a second reading keeps it and refreshes the rest.
    const res = await patch(marshall, r.verificationId, { amount: 2500 });
    expect(res.statusCode, res.body).toBe(200);
    await readReceiptFile(t.database.db, r.fileId, pdf);
    expect(await readingOf(r.fileId)).toMatchObject({
      status: 'read',
      referenceNumber: '1001543610110',
      amountCentavos: 250_000,
      correctedBy: marshall.userId,
    });

    // A PDF with no text (a scan) says it could not be read.
    const other = await pendingRider();
    const blank = await PDFDocument.create();
    blank.addPage([200, 200]);
    await readReceiptFile(t.database.db, other.fileId, Buffer.from(await blank.save()));
    expect(await readingOf(other.fileId)).toMatchObject({ status: 'unreadable', referenceNumber: null, text: '' });
  });
});
