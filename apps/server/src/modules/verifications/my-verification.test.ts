// The rider's side of a rejection: the reason reaches the rider, and a new receipt puts
// them back in the queue with the old receipt kept for staff.
import { paymentAmountFor } from '@rally/shared/catalog/registration';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { files } from '../../db/schema/files';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, jpeg, multipart, pdf, registerRider, staff } from '../../test/factories';
import { waitForFiles } from '../../test/wait-for-files';

describe.each(DB_KINDS)('my verification and receipt resubmission (%s)', (kind) => {
  let t: TestApp;
  let marshall: Actor;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    marshall = await staff(t.app, t.database.db, 'marshall');
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  const reject = (code: string, notes?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/verifications/verify',
      headers: bearer(marshall.token),
      payload: { verification_code: code, action: 'rejected', ...(notes ? { notes } : {}) },
    });
  const resubmit = (token: string, data: Buffer, filename: string, contentType: string) => {
    const body = multipart({}, [{ field: 'paymentReceipt', filename, contentType, data }]);
    return t.app.inject({
      method: 'POST',
      url: '/api/my/verification/receipt',
      ...body,
      headers: { ...body.headers, ...bearer(token) },
    });
  };
  const pendingEntry = async (code: string) => {
    const res = await get(marshall.token, `/api/admin/verifications/pending?search=${code}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data[0];
  };

  it('shows the desk what a receipt must match: rider number, category and its price', async () => {
    const rider = await registerRider(t.app, { category: 'lakan' });
    const entry = await pendingEntry(rider.verificationCode);
    expect(entry).toMatchObject({
      rider_number: rider.riderNumber,
      category: 'lakan',
      expected_amount: paymentAmountFor('lakan'),
      previous_notes: null,
      previous_receipts: [],
    });
  });

  it('tells a rejected rider why, and only a rejected one', async () => {
    const rider = await registerRider(t.app);
    const before = await get(rider.token, '/api/my/verification');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data).toMatchObject({
      status: 'pending',
      verification_code: rider.verificationCode,
      rejection_notes: null,
      has_payment_receipt: true,
      can_resubmit: false,
    });

    const res = await reject(rider.verificationCode, 'Amount does not match. Paid 2,500');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User rejected successfully!');

    const after = await get(rider.token, '/api/my/verification');
    expect(after.json().data).toMatchObject({
      status: 'rejected',
      rejection_notes: 'Amount does not match. Paid 2,500',
      can_resubmit: true,
    });
    expect(after.json().data.decided_at).toEqual(expect.any(String));
  });

  it('puts a rejected rider back in the queue with a new receipt, keeping the old one and auditing it', async () => {
    const rider = await registerRider(t.app);
    const [oldFile] = await t.database.db
      .select({ id: files.id, sha256: files.sha256, mimeType: files.mimeType })
      .from(files)
      .where(and(eq(files.userId, rider.userId), eq(files.kind, 'payment_receipt')));
    expect(oldFile?.mimeType).toBe('image/png');
    await reject(rider.verificationCode, 'Receipt unreadable');

    const sent = await resubmit(rider.token, await jpeg({ width: 64, height: 40 }), 'clear.jpg', 'image/jpeg');
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      success: true,
      data: { status: 'pending', verification_code: rider.verificationCode, file: { mime_type: 'image/jpeg' } },
    });
    const newId = sent.json().data.file.id as string;

    const mine = await get(rider.token, '/api/my/verification');
    expect(mine.json().data).toMatchObject({ status: 'pending', rejection_notes: null, can_resubmit: false });
    const profile = await get(rider.token, '/api/auth/profile');
    expect(profile.json().data.user.verificationStatus).toBe('pending');

    // Back in the staff's queue, the earlier reason and receipt beside the new one.
    const entry = await pendingEntry(rider.verificationCode);
    expect(entry).toMatchObject({ has_payment_receipt: true, previous_notes: 'Receipt unreadable' });
    expect(entry.previous_receipts).toEqual([
      { id: oldFile?.id, mime_type: 'image/png', superseded_at: expect.any(String) },
    ]);

    // Once the queue has processed it: by user id the current receipt; by file id the old one is still there.
    await waitForFiles(t.app);
    const current = await get(marshall.token, `/api/upload/payment-receipt/${rider.userId}`);
    expect(current.statusCode).toBe(200);
    expect(current.headers['content-type']).toBe('image/jpeg');
    const old = await get(marshall.token, `/api/upload/payment-receipt/${oldFile?.id}`);
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-type']).toBe('image/png');
    expect(old.headers.etag).toBe(`"${oldFile?.sha256}"`);
    // The rider's own file list shows the current receipt only, and the old one cannot be removed.
    const list = await get(rider.token, '/api/upload/user-files');
    const receipts = list.json().data.files.filter((f: { kind: string }) => f.kind === 'payment_receipt');
    expect(receipts.map((f: { id: string }) => f.id)).toEqual([newId]);
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/payment-receipt/${oldFile?.id}`,
      headers: bearer(rider.token),
    });
    expect(remove.statusCode).toBe(404);

    const audit = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.userId, rider.userId), eq(activities.type, 'verification_resubmitted')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: rider.userId });
    expect(audit[0]?.metadata).toMatchObject({
      verificationCode: rider.verificationCode,
      previousStatus: 'rejected',
      fileId: newId,
      supersededFileIds: [oldFile?.id],
    });

    // A second rejection and resubmission keeps both earlier receipts, newest first.
    await reject(rider.verificationCode, 'Wrong account');
    const again = await resubmit(rider.token, pdf(), 'receipt.pdf', 'application/pdf');
    expect(again.statusCode, again.body).toBe(201);
    const twice = await pendingEntry(rider.verificationCode);
    expect(twice.previous_notes).toBe('Wrong account');
    expect(twice.previous_receipts.map((r: { id: string }) => r.id)).toEqual([newId, oldFile?.id]);

    // Approving afterwards works as for any pending rider.
    const approve = await t.app.inject({
      method: 'POST',
      url: '/api/admin/verifications/verify',
      headers: bearer(marshall.token),
      payload: { verification_code: rider.verificationCode, action: 'verified' },
    });
    expect(approve.statusCode, approve.body).toBe(200);
  });

  it('refuses a resubmission from a verified rider and from a pending one with a receipt', async () => {
    const verified = await approvedRider(t.app, marshall);
    const refused = await resubmit(verified.token, await jpeg(), 'r.jpg', 'image/jpeg');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, code: 'ALREADY_VERIFIED' });

    const waiting = await registerRider(t.app);
    const early = await resubmit(waiting.token, await jpeg(), 'r.jpg', 'image/jpeg');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ success: false, code: 'ALREADY_PENDING' });
    // Nothing was kept or replaced by the refused calls.
    const rows = await t.database.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.userId, waiting.userId), eq(files.kind, 'payment_receipt')));
    expect(rows).toHaveLength(1);
  });

  it('applies the receipt rules: types by content, size, and a file is required', async () => {
    const rider = await registerRider(t.app);
    await reject(rider.verificationCode, 'Duplicate receipt');

    const text = await resubmit(rider.token, Buffer.from('not a receipt at all'), 'receipt.pdf', 'application/pdf');
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('Please select an image (JPG, PNG, GIF) or PDF file');

    const big = await resubmit(rider.token, Buffer.alloc(10 * 1024 * 1024 + 1, 0xff), 'big.jpg', 'image/jpeg');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('File size must be less than 10MB');

    const empty = multipart({ note: 'x' });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/my/verification/receipt',
      ...empty,
      headers: { ...empty.headers, ...bearer(rider.token) },
    });
    expect(none.statusCode).toBe(400);

    // Still rejected, the reason still shown, until a valid receipt arrives.
    const mine = await get(rider.token, '/api/my/verification');
    expect(mine.json().data).toMatchObject({ status: 'rejected', rejection_notes: 'Duplicate receipt' });
  });

  it('answers 401 to a visitor', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/my/verification' });
    expect(anonymous.statusCode).toBe(401);
  });
});
