// The desk's flags (DESIGN.md §13), each positive and negative, as the pending list and the
// single receipt check show them.
import { formatReference } from '@rally/shared/catalog/receipts';
import { paymentAmountFor } from '@rally/shared/catalog/registration';
import type { ReceiptCheck } from '@rally/shared/contracts/receipts';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { markVerified } from '../../test/community-factories';
import { bearer, multipart, png, registerRider } from '../../test/factories';
import {
  currentReceiptId,
  flipBits,
  newPhash,
  newReference,
  newSha,
  type ReadingValues,
  setReceipt,
} from './receipt-test-helpers';

describe.each(DB_KINDS)('receipt flags (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall');
  const { marshall } = t.staff;
  const OPENS = new Date('2026-01-01T00:00:00+08:00');
  const CLOSES = new Date('2099-12-31T00:00:00+08:00');

  beforeAll(async () => {
    // A window around now, so registration stays open while the tests read dates against it.
    await t.database.db
      .update(editions)
      .set({ registrationOpensAt: OPENS, registrationClosesAt: CLOSES })
      .where(eq(editions.current, true));
  });

  /** A registered rider whose current receipt has its own identity and the reading given. */
  async function rider(
    opts: { reading?: ReadingValues; sha256?: string; phash?: string | null; category?: string } = {},
  ) {
    const r = await registerRider(t.app, opts.category ? { category: opts.category } : {});
    const fileId = await currentReceiptId(t.database.db, r.userId);
    await setReceipt(t.app, t.database.db, fileId, { sha256: opts.sha256, phash: opts.phash, reading: opts.reading });
    return { ...r, fileId };
  }

  const pending = async (search: string): Promise<PendingVerification[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/verifications/pending?search=${encodeURIComponent(search)}`,
      headers: bearer(marshall.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const checkOf = async (code: string): Promise<ReceiptCheck> => {
    const [entry] = await pending(code);
    expect(entry?.receipt_check).toBeTruthy();
    return entry?.receipt_check as ReceiptCheck;
  };
  const kinds = (check: ReceiptCheck) => check.flags.map((f) => f.kind).sort();
  const owed = (category = 'bagani') => paymentAmountFor(category as 'bagani') * 100;
  const inWindow = () => new Date('2026-03-12T10:15:00+08:00');

  it('flags the same reference on another rider’s receipt, naming their number and decision', async () => {
    const reference = newReference();
    const first = await rider({ reading: { referenceNumber: reference, amountCentavos: owed(), paidAt: inWindow() } });
    await markVerified(t.database.db, first.userId);
    await t.database.db
      .update(entries)
      .set({ verifiedAt: new Date('2026-03-12T09:00:00+08:00') })
      .where(eq(entries.userId, first.userId));
    const second = await rider({ reading: { referenceNumber: reference, amountCentavos: owed(), paidAt: inWindow() } });
    const other = await rider({
      reading: { referenceNumber: newReference(), amountCentavos: owed(), paidAt: inWindow() },
    });

    const check = await checkOf(second.verificationCode);
    expect(check.fileId).toBe(second.fileId);
    expect(check.reading).toMatchObject({ status: 'read', referenceNumber: reference, amount: owed() / 100 });
    expect(kinds(check)).toEqual(['duplicate_reference']);
    const number = `#${String(first.riderNumber).padStart(3, '0')}`;
    expect(check.flags[0]?.message).toBe(
      `reference ${formatReference(reference)} is also on ${number}'s receipt, approved on 12 March`,
    );
    expect(check.flags[0]?.matched).toMatchObject({
      fileId: first.fileId,
      userId: first.userId,
      riderNumber: first.riderNumber,
      status: 'verified',
    });
    expect(kinds(await checkOf(other.verificationCode))).toEqual([]);
  });

  it('does not flag a rider’s own earlier receipt with the same reference', async () => {
    const reference = newReference();
    const r = await rider({ reading: { referenceNumber: reference, amountCentavos: owed(), paidAt: inWindow() } });
    const reject = await t.app.inject({
      method: 'POST',
      url: '/api/admin/verifications/verify',
      headers: bearer(marshall.token),
      payload: { verification_code: r.verificationCode, action: 'rejected', notes: 'blurry' },
    });
    expect(reject.statusCode, reject.body).toBe(200);
    const body = multipart({}, [
      { field: 'paymentReceipt', filename: 'again.png', contentType: 'image/png', data: await png(50, 52) },
    ]);
    const resent = await t.app.inject({
      method: 'POST',
      url: '/api/my/verification/receipt',
      ...body,
      headers: { ...body.headers, ...bearer(r.token) },
    });
    expect(resent.statusCode, resent.body).toBe(201);
    const newFileId = await currentReceiptId(t.database.db, r.userId);
    expect(newFileId).not.toBe(r.fileId);
    await setReceipt(t.app, t.database.db, newFileId, {
      reading: { referenceNumber: reference, amountCentavos: owed(), paidAt: inWindow() },
    });
    const check = await checkOf(r.verificationCode);
    expect(check.fileId).toBe(newFileId);
    expect(kinds(check)).toEqual([]);
  });

  it('flags the same file sent by another rider, and not a file of its own', async () => {
    const sha = newSha();
    const first = await rider({ sha256: sha, reading: { status: 'unreadable' } });
    const second = await rider({ sha256: sha, reading: { status: 'unreadable' } });
    const alone = await rider({ reading: { status: 'unreadable' } });
    const check = await checkOf(second.verificationCode);
    expect(kinds(check)).toEqual(['duplicate_file']);
    expect(check.flags[0]?.message).toMatch(/^the same file was sent as #\d{3}'s receipt, pending since \d+ \w+$/);
    expect(check.flags[0]?.matched?.fileId).toBe(first.fileId);
    expect(kinds(await checkOf(alone.verificationCode))).toEqual([]);
  });

  it('flags a near-identical image only where the reference could not be read', async () => {
    const phash = newPhash();
    const readOne = await rider({
      phash,
      reading: { referenceNumber: newReference(), amountCentavos: owed(), paidAt: inWindow() },
    });
    const unread = await rider({ phash: flipBits(phash, 3), reading: { status: 'unreadable' } });
    const far = await rider({ phash: flipBits(phash, 12), reading: { status: 'unreadable' } });

    const check = await checkOf(unread.verificationCode);
    expect(kinds(check)).toEqual(['similar_image']);
    expect(check.flags[0]?.matched?.fileId).toBe(readOne.fileId);
    expect(check.flags[0]?.message).toContain('the reference could not be read');
    // Twelve bits apart is a different picture.
    expect(kinds(await checkOf(far.verificationCode))).not.toContain('similar_image');
    // The read receipt is not flagged by the unread one that looks like it.
    expect(kinds(await checkOf(readOne.verificationCode))).toEqual([]);
  });

  it('raises 0 false duplicates: two receipts alike but for their references, both read', async () => {
    const phash = newPhash();
    const a = await rider({
      phash,
      reading: { referenceNumber: newReference(), amountCentavos: owed(), paidAt: inWindow() },
    });
    const b = await rider({
      phash: flipBits(phash, 1),
      reading: { referenceNumber: newReference(), amountCentavos: owed(), paidAt: inWindow() },
    });
    expect(kinds(await checkOf(a.verificationCode))).toEqual([]);
    expect(kinds(await checkOf(b.verificationCode))).toEqual([]);
  });

  it('flags an amount other than what the entry owes', async () => {
    const right = await rider({
      category: 'lakan',
      reading: { referenceNumber: newReference(), amountCentavos: owed('lakan') },
    });
    const short = await rider({
      category: 'lakan',
      reading: { referenceNumber: newReference(), amountCentavos: owed('lakan') - 50_000 },
    });
    expect(kinds(await checkOf(right.verificationCode))).toEqual([]);
    const check = await checkOf(short.verificationCode);
    expect(kinds(check)).toEqual(['amount_mismatch']);
    const pesos = (c: number) => `₱${(c / 100).toLocaleString('en-US')}`;
    expect(check.flags[0]?.message).toBe(
      `the receipt shows ${pesos(owed('lakan') - 50_000)}; this entry owes ${pesos(owed('lakan'))}`,
    );
  });

  it('flags a date outside the registration window', async () => {
    const before = await rider({
      reading: {
        referenceNumber: newReference(),
        amountCentavos: owed(),
        paidAt: new Date('2025-12-20T12:00:00+08:00'),
      },
    });
    const inside = await rider({
      reading: { referenceNumber: newReference(), amountCentavos: owed(), paidAt: inWindow() },
    });
    const check = await checkOf(before.verificationCode);
    expect(kinds(check)).toEqual(['date_outside_window']);
    expect(check.flags[0]?.message).toBe('paid on 20 December, before registration opened on 1 January');
    expect(kinds(await checkOf(inside.verificationCode))).toEqual([]);
  });

  it('matches a statement: in statement, not in statement, and dates it does not cover', async () => {
    const paid = newReference();
    const inIt = await rider({
      reading: { referenceNumber: paid, amountCentavos: owed(), paidAt: new Date('2026-04-02T09:00:00+08:00') },
    });
    const missing = await rider({
      reading: {
        referenceNumber: newReference(),
        amountCentavos: owed(),
        paidAt: new Date('2026-04-02T11:00:00+08:00'),
      },
    });
    const later = await rider({
      reading: {
        referenceNumber: newReference(),
        amountCentavos: owed(),
        paidAt: new Date('2026-04-20T11:00:00+08:00'),
      },
    });
    const amount = (owed() / 100).toFixed(2);
    const csv = [
      'Date and Time,Description,Reference No.,Debit,Credit,Balance',
      `2026-04-01 08:00 AM,Received GCash,9999000011112,,100.00,100.00`,
      `2026-04-02 09:00 AM,Received GCash,${paid},,"${amount}",999.00`,
      `2026-04-03 05:00 PM,Received GCash,9999000011113,,100.00,1099.00`,
    ].join('\n');
    const body = multipart({ preset: 'gcash' }, [
      { field: 'file', filename: 'gcash.csv', contentType: 'text/csv', data: Buffer.from(csv) },
    ]);
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/admin/payment-statements',
      ...body,
      headers: { ...body.headers, ...bearer(marshall.token) },
    });
    expect(up.statusCode, up.body).toBe(201);

    const matched = await checkOf(inIt.verificationCode);
    expect(kinds(matched)).toEqual([]);
    expect(matched.inStatement).toMatchObject({ statementId: up.json().data.id, line: 2 });
    const notThere = await checkOf(missing.verificationCode);
    expect(kinds(notThere)).toEqual(['not_in_statement']);
    expect(notThere.flags[0]?.matched?.statementId).toBe(up.json().data.id);
    expect(notThere.inStatement).toBeNull();
    // 20 April is after the statement's last row: it cannot say the payment is missing.
    expect(kinds(await checkOf(later.verificationCode))).toEqual([]);
  });

  it('finds riders by a reference typed with spaces, and shows a receipt still processing', async () => {
    const reference = newReference();
    const r = await rider({ reading: { referenceNumber: reference, amountCentavos: owed(), paidAt: inWindow() } });
    const [found] = await pending(formatReference(reference));
    expect(found?.user_id).toBe(r.userId);
    expect((await pending(reference.slice(2, 9))).map((p) => p.user_id)).toContain(r.userId);
    const [entry] = await pending(r.verificationCode);
    expect(entry?.receipt_check).toMatchObject({ fileId: r.fileId, fileStatus: 'ready', inStatement: null });
    // The console's users list (verified accounts) finds them the same way.
    await markVerified(t.database.db, r.userId);
    const users = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=${encodeURIComponent(formatReference(reference))}`,
      headers: bearer(marshall.token),
    });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().data.users.map((u: { id: string }) => u.id)).toEqual([r.userId]);

    const unread = await rider();
    await t.database.db.update(files).set({ status: 'processing' }).where(eq(files.id, unread.fileId));
    const check = await checkOf(unread.verificationCode);
    expect(check.fileStatus).toBe('processing');
    expect(check.reading.status).not.toBe('read');

    const single = await t.app.inject({
      method: 'GET',
      url: `/api/admin/verifications/${entry?.id}/receipt-check`,
      headers: bearer(marshall.token),
    });
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json().data).toEqual(entry?.receipt_check);
  });
});
