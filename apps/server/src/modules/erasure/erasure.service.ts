// Erasure on request (DESIGN.md §12): the rider asks, staff with `delete_user` approve or
// refuse with a reason. Approving deletes the account through the deletion staff use
// (users.service.ts: its visibility rule, its anonymising of what outlives the account, its
// log line) in the same transaction as the decision, so there is never an approved request
// with its account still there, nor an account gone with its request still pending.
import { isRiderRole } from '@rally/shared/catalog/accounts';
import type { ErasureDecisionBody, ErasureRequestBody, ErasureRequestsQuery } from '@rally/shared/contracts/erasure';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { erasureRequests } from '../../db/schema/privacy';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { ConflictError, NotFoundError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { pageOf, totalRows } from '../../lib/pagination';
import { ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { canSee, visibleAccounts } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { deleteUserIn } from '../users/users.service';

export const STAFF_MAY_NOT_ASK = 'Staff accounts are removed by an administrator';
const notFound = () => new NotFoundError('Erasure request not found', 'ERASURE_REQUEST_NOT_FOUND');

const ownColumns = {
  id: erasureRequests.id,
  status: erasureRequests.status,
  note: erasureRequests.note,
  requestedAt: erasureRequests.requestedAt,
  decidedAt: erasureRequests.decidedAt,
  reason: erasureRequests.reason,
};

/** The rider's latest request (a pending one first), or null. */
export async function myErasureRequest(db: DbOrTx, userId: string) {
  const [row] = await db
    .select(ownColumns)
    .from(erasureRequests)
    .where(eq(erasureRequests.userId, userId))
    .orderBy(sql`${erasureRequests.status} = 'pending' desc`, desc(erasureRequests.requestedAt))
    .limit(1);
  return row ?? null;
}

export type MyErasureRow = NonNullable<Awaited<ReturnType<typeof myErasureRequest>>>;

/** One pending request at a time; a refused rider may ask again. */
export async function askErasure(db: Db, userId: string, body: ErasureRequestBody) {
  return db.transaction(async (tx) => {
    // The account's row, locked: two requests sent at once cannot both find none pending.
    const [account] = await tx
      .select({ role: users.role })
      .from(users)
      .where(eq(users.id, userId))
      .for('no key update');
    if (!account) throw new NotFoundError('Account not found', 'USER_NOT_FOUND');
    if (!isRiderRole(account.role)) throw new ConflictError(STAFF_MAY_NOT_ASK, 'STAFF_ACCOUNT');
    const [pending] = await tx
      .select({ id: erasureRequests.id })
      .from(erasureRequests)
      .where(and(eq(erasureRequests.userId, userId), eq(erasureRequests.status, 'pending')))
      .limit(1);
    if (pending) {
      throw new ConflictError(
        'You already asked for your account to be erased: staff will decide on that request. Withdraw it to ask again.',
        'ERASURE_PENDING',
      );
    }
    const note = body.note?.trim() || null;
    const [row] = await tx.insert(erasureRequests).values({ userId, note }).returning(ownColumns);
    if (!row) throw new Error('the erasure request was not stored');
    return row;
  });
}

/** Withdraws the rider's pending request: it goes, as if never made. */
export async function withdrawErasure(db: Db, userId: string) {
  const removed = await db
    .delete(erasureRequests)
    .where(and(eq(erasureRequests.userId, userId), eq(erasureRequests.status, 'pending')))
    .returning({ id: erasureRequests.id });
  if (removed.length === 0) {
    throw new NotFoundError('You have no pending erasure request to withdraw', 'NO_PENDING_ERASURE_REQUEST');
  }
}

const adminColumns = {
  id: erasureRequests.id,
  status: erasureRequests.status,
  note: erasureRequests.note,
  requestedAt: erasureRequests.requestedAt,
  decidedAt: erasureRequests.decidedAt,
  decidedByName: erasureRequests.decidedByName,
  reason: erasureRequests.reason,
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  riderNumber: entries.riderNumber,
};

export interface AdminErasureRow {
  id: string;
  status: string;
  note: string | null;
  requestedAt: Date;
  decidedAt: Date | null;
  decidedByName: string | null;
  reason: string | null;
  userId: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  riderNumber: number | null;
}

const STATUS_FILTER = {
  pending: eq(erasureRequests.status, 'pending'),
  approved: eq(erasureRequests.status, 'approved'),
  refused: eq(erasureRequests.status, 'refused'),
  decided: ne(erasureRequests.status, 'pending'),
} as const;

function adminRows(db: DbOrTx) {
  return db
    .select({ ...adminColumns, total: totalRows })
    .from(erasureRequests)
    .leftJoin(users, eq(users.id, erasureRequests.userId))
    .leftJoin(entries, ownEntry);
}

/**
 * Staff list, newest first: with the rider while the account exists; requests of accounts
 * the viewer may not see stay out, as those accounts do everywhere.
 */
export async function listErasureRequests(db: Db, viewerRole: string, q: ErasureRequestsQuery) {
  const where = and(
    visibleAccounts(viewerRole, users.role, { orphans: true }),
    q.status ? STATUS_FILTER[q.status] : undefined,
  );
  return pageOf(
    (limit, offset) =>
      adminRows(db)
        .where(where)
        .orderBy(desc(erasureRequests.requestedAt), desc(erasureRequests.id))
        .limit(limit)
        .offset(offset),
    q,
  );
}

async function adminRow(db: DbOrTx, id: string): Promise<AdminErasureRow> {
  const [row] = await adminRows(db).where(eq(erasureRequests.id, id)).limit(1);
  if (!row) throw notFound();
  return row;
}

export type ErasureDecision = 'approved' | 'refused';

/**
 * Decides a pending request. Approving deletes the account (deleteUserIn: a staff member may
 * not act on an account they cannot see; the rider's note is cleared by the deletion) and
 * records the decision in the same transaction; the stored files go once it has committed.
 */
export async function decideErasure(
  db: Db,
  viewer: AuthContext,
  id: string,
  decision: ErasureDecision,
  body: ErasureDecisionBody,
  store: FileStore,
) {
  let objects: string[] = [];
  await db.transaction(async (tx) => {
    const [request] = await tx
      .select({ id: erasureRequests.id, userId: erasureRequests.userId, status: erasureRequests.status })
      .from(erasureRequests)
      .where(eq(erasureRequests.id, id))
      .for('update');
    if (!request) throw notFound();
    const [rider] = request.userId
      ? await tx
          .select({ id: users.id, role: users.role, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, request.userId))
      : [];
    if (rider && !canSee(viewer.role, rider.role)) throw notFound();
    if (request.status !== 'pending') {
      throw new ConflictError(`This request was already ${request.status}`, 'ERASURE_ALREADY_DECIDED');
    }
    const name = rider ? displayName(rider) : null;
    const staffName = displayName(viewer);
    if (decision === 'approved' && rider) objects = await deleteUserIn(tx, viewer, rider.id);
    await tx
      .update(erasureRequests)
      .set({
        status: decision,
        decidedAt: new Date(),
        decidedBy: viewer.userId,
        decidedByName: staffName,
        reason: body.reason,
        // The deletion already cleared it; a request whose account went another way says nothing either.
        ...(decision === 'approved' ? { note: null } : {}),
      })
      .where(eq(erasureRequests.id, id));
    await recordActivity(
      tx,
      decision === 'approved'
        ? {
            // Only what the deletion's own line keeps (the name); the account's id went with it.
            type: 'erasure_decided',
            userId: null,
            userName: name,
            actorId: viewer.userId,
            actorName: staffName,
            description: name
              ? `${staffName} approved the erasure request of ${name}: the account was erased`
              : `${staffName} approved an erasure request whose account was already deleted`,
            details: `Reason: ${body.reason}`,
            metadata: { erasureRequestId: id, decision },
          }
        : {
            type: 'erasure_decided',
            userId: rider?.id ?? null,
            userName: name,
            actorId: viewer.userId,
            actorName: staffName,
            description: `${staffName} refused the erasure request of ${name ?? 'a deleted account'}`,
            details: `Reason: ${body.reason}`,
            metadata: { erasureRequestId: id, decision },
          },
    );
  });
  await store.remove(objects);
  return adminRow(db, id);
}
