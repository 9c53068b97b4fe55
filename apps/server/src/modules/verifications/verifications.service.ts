// Payment verification: the pending queue, approve/reject, undo, history and stats.
// Every decision is a guarded UPDATE (… WHERE status = expected RETURNING), so two staff
// approving the same rider at once produce one decision, one history row and one
// activity; the loser is told what happened.
import { isRiderRole, type VerificationAction } from '@rally/shared/catalog/accounts';
import { paymentAmountFor } from '@rally/shared/catalog/registration';
import type { VerifyBody } from '@rally/shared/contracts/verifications';
import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries, verificationHistory } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { type EditionRead, inEdition, receiptOfEdition, replacedInEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { isRider } from '../../lib/riders';
import { containsPattern, displayName, onlyRow } from '../../lib/sql-text';
import { newRiderCode } from '../../lib/tokens';
import { visibleAccounts } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { currentEdition, pricesOf } from '../editions/editions.service';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyUser } from '../messages/notify';
import { receiptChecksFor } from '../receipts/receipt-flags';
import { referenceMatches } from '../receipts/receipt-search';
import { type PendingRow, type PreviousReceipt, presentHistoryEntry, presentPending } from './verifications.presenter';

/** The pending queue of `edition` (the current one when undefined; a past one is read-only history). */
export async function listPending(db: Db, q: { page: number; limit: number; search?: string }, edition?: EditionRead) {
  const pattern = q.search ? containsPattern(q.search) : null;
  const where = and(
    inEdition(entries.editionId, edition),
    eq(entries.status, 'pending'),
    isRider,
    pattern
      ? or(
          sql`${entries.verificationCode} ilike ${pattern}`,
          sql`${users.kitName} ilike ${pattern}`,
          sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
          sql`${users.email} ilike ${pattern}`,
          q.search ? referenceMatches(users.id, q.search) : undefined,
        )
      : undefined,
  );
  const page = await pageOf(
    (limit, offset) =>
      db
        .select({
          id: entries.id,
          userId: users.id,
          kitName: users.kitName,
          firstName: users.firstName,
          lastName: users.lastName,
          email: users.email,
          code: entries.verificationCode,
          paymentMethod: entries.paymentMethod,
          paymentAmount: entries.paymentAmount,
          hasReceipt: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'payment_receipt' and ${receiptOfEdition(files, edition)})`,
          createdAt: entries.createdAt,
          category: entries.category,
          riderNumber: entries.riderNumber,
          previousNotes: entries.notes,
          previousReceipts: sql<
            PreviousReceipt[]
          >`coalesce((select json_agg(json_build_object('id', ${files.id}, 'mime_type', ${files.mimeType}, 'superseded_at', ${files.supersededAt}) order by ${files.supersededAt} desc) from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'payment_receipt' and ${replacedInEdition(files, edition)}
            and ${files.createdAt} >= ${entries.createdAt}), '[]'::json)`,
          total: totalRows,
        })
        .from(entries)
        .innerJoin(users, eq(users.id, entries.userId))
        .where(where)
        // Oldest first: riders who have waited longest are served first.
        .orderBy(asc(entries.createdAt), asc(entries.id))
        .limit(limit)
        .offset(offset),
    q,
  );
  // The amount expected at the edition's prices; each receipt checked against it.
  const editionRow = await currentEdition(db, edition);
  const prices = pricesOf(editionRow);
  const expected = (r: PendingRow) => (r.category ? paymentAmountFor(r.category, prices) : null);
  const checks = await receiptChecksFor(
    db,
    editionRow,
    page.rows.filter((r) => r.hasReceipt).map((r) => ({ userId: r.userId, expectedAmount: expected(r) })),
  );
  return {
    data: page.rows.map((r) => presentPending(r, prices, checks.get(r.userId) ?? null)),
    pagination: page.pagination,
  };
}

const ACTION_WORD: Record<VerificationAction, string> = { verified: 'approved', rejected: 'rejected' };

export async function decide(db: Db, admin: AuthContext, body: VerifyBody, messenger: Messenger = SILENT_MESSENGER) {
  const code = body.verification_code.trim().toUpperCase();
  const notes = body.notes?.trim() || null;
  return db.transaction(async (tx) => {
    const now = new Date();
    const [decided] = await tx
      .update(entries)
      .set({ status: body.action, verifiedBy: admin.userId, verifiedAt: now, notes, updatedAt: now })
      // Codes are unique per edition only; a past edition's rows are read-only.
      .where(and(eq(entries.verificationCode, code), eq(entries.status, 'pending'), inEdition(entries.editionId)))
      .returning({ id: entries.id, userId: entries.userId });
    if (!decided) {
      const [existing] = await tx
        .select({ status: entries.status })
        .from(entries)
        .where(and(eq(entries.verificationCode, code), inEdition(entries.editionId)))
        .limit(1);
      if (!existing) throw new NotFoundError(`No verification with the code ${code}`, 'VERIFICATION_NOT_FOUND');
      throw new ConflictError(
        `This verification is already ${existing.status}; only a pending verification can be approved or rejected.`,
        'NOT_PENDING',
      );
    }
    let riderCode: string | null = null;
    if (body.action === 'verified') {
      // The QR sticker's code is made once per entry and kept, even across an undo and
      // re-approval; a new edition's entry gets its own.
      await tx
        .update(entries)
        .set({ riderCode: newRiderCode() })
        .where(and(eq(entries.id, decided.id), isNull(entries.riderCode)));
      await tx.update(users).set({ updatedAt: now }).where(eq(users.id, decided.userId));
    }
    const user = onlyRow(
      await tx
        .select({
          firstName: users.firstName,
          lastName: users.lastName,
          kitName: users.kitName,
          riderCode: entries.riderCode,
          riderNumber: entries.riderNumber,
        })
        .from(entries)
        .innerJoin(users, eq(users.id, entries.userId))
        .where(eq(entries.id, decided.id)),
    );
    if (body.action === 'verified') riderCode = user.riderCode;
    await tx.insert(verificationHistory).values({
      verificationId: decided.id,
      userId: decided.userId,
      userFirstName: user.firstName,
      userLastName: user.lastName,
      kitName: user.kitName,
      verificationCode: code,
      action: body.action,
      adminId: admin.userId,
      adminFirstName: admin.firstName,
      adminLastName: admin.lastName,
      notes,
      createdAt: now,
    });
    await recordActivity(tx, {
      type: 'verification',
      userId: decided.userId,
      userName: displayName(user),
      actorId: admin.userId,
      actorName: displayName(admin),
      description: `${displayName(admin)} ${ACTION_WORD[body.action]} the payment of ${displayName(user)}`,
      details: notes ? `Code ${code}. Notes: ${notes}` : `Code ${code}`,
      metadata: { verificationCode: code, action: body.action },
    });
    // The rider hears the decision: their pass link, or why and where to send a new receipt.
    await notifyUser(
      tx,
      messenger,
      decided.userId,
      body.action,
      body.action === 'verified'
        ? { firstName: user.firstName, riderNumber: user.riderNumber }
        : { firstName: user.firstName, reason: notes ?? 'no reason given' },
    );
    return { user_id: decided.userId, verification_code: code, status: body.action, rider_code: riderCode };
  });
}

/**
 * Returns a decided rider to pending (developer only). Undo was asked for the verified case;
 * a rejection can be undone the same way, so a mistaken rejection is not final.
 */
export async function undo(db: Db, developer: AuthContext, userId: string) {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [before] = await tx
      .select({ status: entries.status, role: users.role })
      .from(entries)
      .innerJoin(users, eq(users.id, entries.userId))
      .where(and(eq(entries.userId, userId), inEdition(entries.editionId)))
      .limit(1);
    if (!before) throw new NotFoundError('No verification found for this user', 'VERIFICATION_NOT_FOUND');
    if (!isRiderRole(before.role)) {
      // Staff accounts are created verified; returning one to pending would only lock it out.
      throw new ConflictError('Staff accounts have no payment verification to undo', 'STAFF_ACCOUNT');
    }
    const [undone] = await tx
      .update(entries)
      .set({ status: 'pending', verifiedBy: null, verifiedAt: null, updatedAt: now })
      .where(
        and(
          eq(entries.userId, userId),
          inEdition(entries.editionId),
          inArray(entries.status, ['verified', 'rejected']),
        ),
      )
      .returning({ id: entries.id, code: entries.verificationCode });
    if (!undone) throw new ConflictError('This verification is already pending', 'ALREADY_PENDING');
    const user = onlyRow(
      await tx
        .select({ firstName: users.firstName, lastName: users.lastName, kitName: users.kitName })
        .from(users)
        .where(eq(users.id, userId)),
    );
    const notes = `Returned to pending (was ${before.status})`;
    await tx.insert(verificationHistory).values({
      verificationId: undone.id,
      userId,
      userFirstName: user.firstName,
      userLastName: user.lastName,
      kitName: user.kitName,
      verificationCode: undone.code,
      action: 'undone',
      adminId: developer.userId,
      adminFirstName: developer.firstName,
      adminLastName: developer.lastName,
      notes,
      createdAt: now,
    });
    await recordActivity(tx, {
      type: 'verification_undo',
      userId,
      userName: displayName(user),
      actorId: developer.userId,
      actorName: displayName(developer),
      description: `${displayName(developer)} returned ${displayName(user)} to pending verification`,
      details: notes,
      metadata: { verificationCode: undone.code, previousStatus: before.status },
    });
    return { user_id: userId, verification_code: undone.code, status: 'pending' as const, rider_code: null };
  });
}

/**
 * The history of `edition` (the current one when undefined), newest first; entries about
 * accounts the viewer may not see are left out.
 */
export async function history(db: Db, viewer: AuthContext, q: { page: number; limit: number }, edition?: EditionRead) {
  const page = await pageOf(
    (limit, offset) =>
      db
        .select({ h: verificationHistory, total: totalRows })
        .from(verificationHistory)
        .leftJoin(users, eq(users.id, verificationHistory.userId))
        .where(
          and(
            inEdition(verificationHistory.editionId, edition),
            visibleAccounts(viewer.role, users.role, { orphans: true }),
          ),
        )
        .orderBy(desc(verificationHistory.createdAt), desc(verificationHistory.id))
        .limit(limit)
        .offset(offset),
    q,
  );
  return { data: page.rows.map(({ h }) => presentHistoryEntry(h)), pagination: page.pagination };
}

/**
 * Counts of `edition`'s entries (the current one when undefined), over rider accounts only
 * (see contracts/verifications.ts).
 */
export async function stats(db: Db, edition?: EditionRead) {
  const row = onlyRow(
    await db
      .select({
        pending: sql<number>`count(*) filter (where ${entries.status} = 'pending')`.mapWith(Number),
        approved: sql<number>`count(*) filter (where ${entries.status} = 'verified')`.mapWith(Number),
        rejected: sql<number>`count(*) filter (where ${entries.status} = 'rejected')`.mapWith(Number),
        total: count(),
      })
      .from(entries)
      .innerJoin(users, eq(users.id, entries.userId))
      .where(and(inEdition(entries.editionId, edition), isRider)),
  );
  return { pending: row.pending, approved: row.approved, rejected: row.rejected, total: Number(row.total) };
}
