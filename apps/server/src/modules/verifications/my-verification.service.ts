// The rider's side of a verification: why it was rejected, and sending a new receipt to
// go back to the queue without registering again. The replaced receipt is kept (marked
// superseded) so staff can compare the two.
import type { MyVerification } from '@rally/shared/contracts/verifications';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { inEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { type FileStore, placeUpload } from '../../lib/file-store';
import type { ProcessedFile } from '../../lib/files';
import { displayName, onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { queueFileWork } from '../file-jobs/file-work';
import { fileRow } from '../uploads/uploads.service';

const NO_VERIFICATION = 'You have no payment verification';

const currentReceipt = sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${entries.userId} and ${files.kind} = 'payment_receipt' and ${files.supersededAt} is null)`;

export async function myVerification(db: Db, userId: string): Promise<MyVerification> {
  const [row] = await db
    .select({
      status: entries.status,
      code: entries.verificationCode,
      notes: entries.notes,
      verifiedAt: entries.verifiedAt,
      hasReceipt: currentReceipt,
    })
    .from(entries)
    .where(and(eq(entries.userId, userId), inEdition(entries.editionId)))
    .limit(1);
  if (!row) throw new NotFoundError(NO_VERIFICATION, 'VERIFICATION_NOT_FOUND');
  const rejected = row.status === 'rejected';
  return {
    status: row.status,
    verification_code: row.code,
    // Notes of an approval (or of a decision later undone) are staff-facing only.
    rejection_notes: rejected ? row.notes : null,
    decided_at: row.verifiedAt ? row.verifiedAt.toISOString() : null,
    has_payment_receipt: !!row.hasReceipt,
    can_resubmit: rejected || (row.status === 'pending' && !row.hasReceipt),
  };
}

/**
 * Stores a new receipt for a rejected rider (or a pending one who has none) and returns
 * them to pending. The verification row is locked first, so two sends at once make one
 * resubmission; the object is placed before the rows commit, as every upload is.
 */
export async function resubmitReceipt(db: Db, store: FileStore, userId: string, file: ProcessedFile) {
  const placement = await placeUpload(store, file);
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ id: entries.id, status: entries.status, code: entries.verificationCode })
        .from(entries)
        .where(and(eq(entries.userId, userId), inEdition(entries.editionId)))
        .for('update');
      if (!current) throw new NotFoundError(NO_VERIFICATION, 'VERIFICATION_NOT_FOUND');
      if (current.status === 'verified') {
        throw new ConflictError(
          'Your payment is already verified; the receipt can no longer be changed.',
          'ALREADY_VERIFIED',
        );
      }
      const now = new Date();
      const superseded = await tx
        .update(files)
        .set({ supersededAt: now })
        .where(and(eq(files.userId, userId), eq(files.kind, 'payment_receipt'), isNull(files.supersededAt)))
        .returning({ id: files.id });
      if (current.status === 'pending' && superseded.length > 0) {
        throw new ConflictError(
          'Your receipt is already waiting for review; a new one can be sent only after a rejection.',
          'ALREADY_PENDING',
        );
      }
      const saved = onlyRow(
        await tx
          .insert(files)
          .values({ ...fileRow(userId, file, placement), kind: 'payment_receipt', createdAt: now })
          .returning({ id: files.id, mimeType: files.mimeType, createdAt: files.createdAt, status: files.status }),
      );
      await queueFileWork(tx, {
        id: saved.id,
        kind: 'payment_receipt',
        status: saved.status,
        mimeType: saved.mimeType,
      });
      // Back to the queue: the rejection's notes stay on the row so the desk sees them
      // beside the new receipt; the rider is shown them only while rejected.
      await tx
        .update(entries)
        .set({ status: 'pending', verifiedBy: null, verifiedAt: null, updatedAt: now })
        .where(eq(entries.id, current.id));
      const user = onlyRow(
        await tx
          .select({ firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, userId)),
      );
      await recordActivity(tx, {
        type: 'verification_resubmitted',
        userId,
        userName: displayName(user),
        actorId: userId,
        actorName: displayName(user),
        description: `${displayName(user)} sent a new payment receipt and is pending verification again`,
        details: `Code ${current.code}`,
        metadata: {
          verificationCode: current.code,
          previousStatus: current.status,
          fileId: saved.id,
          supersededFileIds: superseded.map((f) => f.id),
        },
      });
      return {
        status: 'pending' as const,
        verification_code: current.code,
        file: { id: saved.id, mime_type: saved.mimeType, created_at: saved.createdAt.toISOString() },
      };
    });
  } catch (err) {
    if (placement.storageKey) await store.remove([placement.storageKey]);
    throw err;
  }
}
