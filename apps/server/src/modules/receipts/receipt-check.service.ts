// One verification's receipt at the desk: its check, and staff typing or correcting what
// was read (PATCH …/reading), recorded with who and when and audited.
import { referenceDigits } from '@rally/shared/catalog/receipts';
import { paymentAmountFor } from '@rally/shared/catalog/registration';
import type { ReadingPatchBody, ReceiptCheck } from '@rally/shared/contracts/receipts';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { receiptReadings } from '../../db/schema/receipts';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { type EditionRead, inEdition, receiptOfEdition } from '../../lib/edition-of';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { displayName, onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { currentEdition, pricesOf } from '../editions/editions.service';
import { receiptChecksFor } from './receipt-flags';
import { markCorrected, queueReading, type ReadingField, statusOf } from './receipt-reading.service';

const noVerification = () => new NotFoundError('Verification not found', 'VERIFICATION_NOT_FOUND');
const noReceipt = () => new NotFoundError('This rider has no receipt to check', 'NO_RECEIPT');

/** The verification `verificationId` of `edition` (the current one when undefined) and its receipt then. */
async function subjectOf(db: DbOrTx, verificationId: string, edition?: EditionRead) {
  const [row] = await db
    .select({
      userId: entries.userId,
      code: entries.verificationCode,
      category: entries.category,
      firstName: users.firstName,
      lastName: users.lastName,
      fileId: files.id,
    })
    .from(entries)
    .innerJoin(users, eq(users.id, entries.userId))
    .leftJoin(
      files,
      and(eq(files.userId, users.id), eq(files.kind, 'payment_receipt'), receiptOfEdition(files, edition)),
    )
    // Only the edition named: a past edition's entry is checked only when named (?edition=),
    // and never corrected (a correction names none).
    .where(and(eq(entries.id, verificationId), inEdition(entries.editionId, edition)))
    .limit(1);
  if (!row) throw noVerification();
  return row;
}

/**
 * The receipt of a verification of `edition` (the current one when undefined; a past one's
 * as it stood then), checked as the pending list checks it.
 */
export async function checkOfVerification(
  db: DbOrTx,
  verificationId: string,
  edition?: EditionRead,
): Promise<ReceiptCheck> {
  const subject = await subjectOf(db, verificationId, edition);
  if (!subject.fileId) throw noReceipt();
  const editionRow = await currentEdition(db, edition);
  const expectedAmount = subject.category ? paymentAmountFor(subject.category, pricesOf(editionRow)) : null;
  const checks = await receiptChecksFor(db, editionRow, [{ userId: subject.userId, expectedAmount }]);
  const check = checks.get(subject.userId);
  if (!check) throw noReceipt();
  return check;
}

const describeValue = (field: ReadingField, value: string | number | Date | null) =>
  value === null ? `${field} cleared` : `${field} ${value instanceof Date ? value.toISOString() : value}`;

/**
 * Staff type what could not be read or correct what was misread. Fields left out are kept;
 * fields sent are remembered as typed, so a reading that lands later never overwrites them.
 */
export async function correctReading(
  db: Db,
  admin: AuthContext,
  verificationId: string,
  body: ReadingPatchBody,
): Promise<ReceiptCheck> {
  const changes: Partial<Record<ReadingField, string | number | Date | null>> = {};
  if (body.referenceNumber !== undefined) {
    const digits = body.referenceNumber ? referenceDigits(body.referenceNumber) : '';
    changes.referenceNumber = digits || null;
  }
  if (body.amount !== undefined) changes.amount = body.amount === null ? null : Math.round(body.amount * 100);
  if (body.paidAt !== undefined) changes.paidAt = body.paidAt === null ? null : new Date(body.paidAt);
  if (body.recipient !== undefined) changes.recipient = body.recipient || null;
  const fields = Object.keys(changes) as ReadingField[];
  if (fields.length === 0) {
    throw new BadRequestError('Send at least one of referenceNumber, amount, paidAt or recipient', 'NOTHING_TO_CHANGE');
  }
  await db.transaction(async (tx) => {
    const subject = await subjectOf(tx, verificationId);
    if (!subject.fileId) throw noReceipt();
    await queueReading(tx, subject.fileId);
    const before = onlyRow(
      await tx.select().from(receiptReadings).where(eq(receiptReadings.fileId, subject.fileId)).for('update'),
    );
    const next = {
      referenceNumber:
        'referenceNumber' in changes ? (changes.referenceNumber as string | null) : before.referenceNumber,
      amountCentavos: 'amount' in changes ? (changes.amount as number | null) : before.amountCentavos,
      paidAt: 'paidAt' in changes ? (changes.paidAt as Date | null) : before.paidAt,
      recipient: 'recipient' in changes ? (changes.recipient as string | null) : before.recipient,
    };
    const now = new Date();
    await tx
      .update(receiptReadings)
      .set({
        ...next,
        // A reading still pending stays so until typed fields make it readable.
        status: before.status === 'pending' && statusOf(next) === 'unreadable' ? 'pending' : statusOf(next),
        confidence: markCorrected(before.confidence, fields),
        correctedBy: admin.userId,
        correctedAt: now,
      })
      .where(eq(receiptReadings.fileId, subject.fileId));
    const rider = displayName(subject);
    await recordActivity(tx, {
      type: 'receipt_corrected',
      userId: subject.userId,
      userName: rider,
      actorId: admin.userId,
      actorName: displayName(admin),
      description: `${displayName(admin)} corrected the receipt reading of ${rider}`,
      details: fields.map((f) => describeValue(f, changes[f] ?? null)).join('; '),
      metadata: { verificationCode: subject.code, fileId: subject.fileId, fields },
    });
  });
  return checkOfVerification(db, verificationId);
}
