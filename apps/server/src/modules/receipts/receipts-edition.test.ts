// The desk's receipt checks after a rollover (DESIGN.md §9, §13): a rider has one
// verification per edition, so another receipt's rider is named with the verification of
// the edition being checked (once, not once per edition), and a past edition's
// verification is checked only through ?edition= and never corrected.
import type { ReceiptCheck } from '@rally/shared/contracts/receipts';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, joinEdition, registerRider, rollOver } from '../../test/factories';
import { currentReceiptId, newReference, setReceipt } from './receipt-test-helpers';

describe.each(DB_KINDS)('receipt checks across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const call = (actor: Actor, method: 'GET' | 'PATCH', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const pending = async (code: string): Promise<PendingVerification[]> => {
    const res = await call(marshall, 'GET', `/api/admin/verifications/pending?search=${code}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const verificationOf = async (userId: string, editionId: string) => {
    const [row] = await t.database.db
      .select({ id: entries.id })
      .from(entries)
      .where(and(eq(entries.userId, userId), eq(entries.editionId, editionId)));
    return row?.id as string;
  };
  const reading = (referenceNumber: string) => ({ referenceNumber, amountCentavos: 300_000, paidAt: new Date() });

  it('names the other rider’s verification of this edition and leaves the past one read-only', async () => {
    const reference = newReference();
    const first = await approvedRider(t.app, admin);
    const lastYears = await currentReceiptId(t.database.db, first.userId);
    await setReceipt(t.app, t.database.db, lastYears, {
      reading: reading(reference),
    });
    const { past, next } = await rollOver(t.app, admin);
    // Registration open around now in the new edition, whatever the copied window was.
    await t.database.db
      .update(editions)
      .set({ registrationOpensAt: new Date('2020-01-01'), registrationClosesAt: new Date('2099-12-31') })
      .where(eq(editions.id, next));
    await joinEdition(t.app, first);
    const second = await registerRider(t.app);
    await setReceipt(t.app, t.database.db, await currentReceiptId(t.database.db, second.userId), {
      reading: reading(reference),
    });

    // One flag for the first rider's earlier receipt, with their entry of this edition.
    const [entry] = await pending(second.verificationCode);
    const check = entry?.receipt_check as ReceiptCheck;
    const duplicates = check.flags.filter((f) => f.kind === 'duplicate_reference');
    expect(duplicates).toHaveLength(1);
    expect(duplicates[0]?.matched).toMatchObject({ userId: first.userId, status: 'pending' });

    // The first rider's past verification: not this edition's, read only through ?edition=.
    const pastId = await verificationOf(first.userId, past);
    const currentId = await verificationOf(first.userId, next);
    expect(pastId).not.toBe(currentId);
    const here = await call(marshall, 'GET', `/api/admin/verifications/${pastId}/receipt-check`);
    expect([here.statusCode, here.json().code]).toEqual([404, 'VERIFICATION_NOT_FOUND']);
    const then = await call(marshall, 'GET', `/api/admin/verifications/${pastId}/receipt-check?edition=${past}`);
    expect(then.statusCode, then.body).toBe(200);
    const now = await call(marshall, 'GET', `/api/admin/verifications/${currentId}/receipt-check`);
    expect(now.statusCode, now.body).toBe(200);
    // Each entry reads its own receipt: last year's as it was, though the rider sent another.
    const thisYears = await currentReceiptId(t.database.db, first.userId);
    expect(thisYears).not.toBe(lastYears);
    expect(then.json().data.fileId).toBe(lastYears);
    expect(then.json().data.reading).toMatchObject({ referenceNumber: reference });
    expect(now.json().data.fileId).toBe(thisYears);
    const corrected = await call(marshall, 'PATCH', `/api/admin/verifications/${pastId}/reading`, {
      recipient: 'Someone',
    });
    expect([corrected.statusCode, corrected.json().code]).toEqual([404, 'VERIFICATION_NOT_FOUND']);
  });
});
