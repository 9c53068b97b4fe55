// The rider's own sizes and rider code. Sizes are submitted once and then frozen: the
// kit is made from them, so a change goes through the organizers, not this form. The
// freeze is the `*_submitted_at` column, set in the same conditional update that stores
// the sizes, so two racing submissions cannot both win.

import type { Size } from '@rally/shared/catalog/registration';
import {
  GEAR_ALREADY_SUBMITTED,
  NO_RIDER_CODE_MESSAGE,
  TSHIRT_ALREADY_SUBMITTED,
} from '@rally/shared/contracts/rider-kit';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { inEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { entrySizeColumns, ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { presentGearSizes, presentTshirtStatus } from './rider-kit.presenter';

/** The user's sizes; all null (nothing submitted) when they have no entry in the edition. */
async function sizesOf(db: Db, userId: string) {
  const [row] = await db
    .select(entrySizeColumns)
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  return row;
}

/** The user's entry in the current edition: the row a size submission writes. */
const ownCurrentEntry = (userId: string) => and(eq(entries.userId, userId), inEdition(entries.editionId));

/**
 * Why a guarded size update changed nothing: the sizes were already submitted, or there is
 * no entry in the current edition to hold them (a returning rider who has not joined yet).
 */
async function refusal(tx: DbOrTx, userId: string, alreadySubmitted: ConflictError) {
  const [entry] = await tx.select({ id: entries.id }).from(entries).where(ownCurrentEntry(userId)).limit(1);
  return entry ? alreadySubmitted : new NotFoundError('You have no entry in the current edition', 'ENTRY_NOT_FOUND');
}

/** The person's row is bumped with every change to their entry, as it was when it held the sizes. */
const touchUser = (tx: DbOrTx, userId: string, now: Date) =>
  tx.update(users).set({ updatedAt: now }).where(eq(users.id, userId));

/** Custom text is kept only with a CUSTOM size; otherwise it would contradict the size. */
const customFor = (size: Size, text: string | null | undefined) => (size === 'CUSTOM' ? (text ?? null) : null);

/** A size as the activity log shows it: the custom text when there is one. */
const showSize = (size: Size, custom: string | null) => (custom ? `CUSTOM (${custom})` : size);

/** The 'size_submitted' entry: the rider submits their own sizes, so they are actor and subject. */
function recordSizesSubmitted(tx: DbOrTx, actor: AuthContext, what: string, metadata: Record<string, unknown>) {
  return recordActivity(tx, {
    type: 'size_submitted',
    priority: 'low',
    userId: actor.userId,
    userName: displayName(actor),
    actorId: actor.userId,
    actorName: displayName(actor),
    description: `${displayName(actor)} submitted ${what}`,
    metadata,
  });
}

export async function tshirtStatus(db: Db, userId: string) {
  return presentTshirtStatus(await sizesOf(db, userId));
}

export async function submitTshirtSize(db: Db, actor: AuthContext, input: { size: Size; customSize?: string | null }) {
  const customSize = customFor(input.size, input.customSize);
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(entries)
      .set({
        tshirtSize: input.size,
        customTshirtSize: customSize,
        tshirtSubmittedAt: now,
        updatedAt: now,
      })
      .where(and(ownCurrentEntry(actor.userId), isNull(entries.tshirtSubmittedAt)))
      .returning(entrySizeColumns);
    if (!row) throw await refusal(tx, actor.userId, new ConflictError(TSHIRT_ALREADY_SUBMITTED, 'TSHIRT_SIZE_LOCKED'));
    await touchUser(tx, actor.userId, now);
    await recordSizesSubmitted(tx, actor, `a T-shirt size: ${showSize(input.size, customSize)}`, {
      item: 'tshirt',
      size: input.size,
      customSize,
    });
    return presentTshirtStatus(row);
  });
}

export async function gearSizes(db: Db, userId: string) {
  return presentGearSizes(await sizesOf(db, userId));
}

export async function submitGearSizes(
  db: Db,
  actor: AuthContext,
  input: {
    finisherSleeveSize: Size;
    vestSize: Size;
    customFinisherSleeveSize?: string | null;
    customVestSize?: string | null;
  },
) {
  const customFinisherSleeveSize = customFor(input.finisherSleeveSize, input.customFinisherSleeveSize);
  const customVestSize = customFor(input.vestSize, input.customVestSize);
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(entries)
      .set({
        finisherSleeveSize: input.finisherSleeveSize,
        customFinisherSleeveSize,
        vestSize: input.vestSize,
        customVestSize,
        gearSubmittedAt: now,
        updatedAt: now,
      })
      .where(and(ownCurrentEntry(actor.userId), isNull(entries.gearSubmittedAt)))
      .returning(entrySizeColumns);
    if (!row) throw await refusal(tx, actor.userId, new ConflictError(GEAR_ALREADY_SUBMITTED, 'GEAR_SIZES_LOCKED'));
    await touchUser(tx, actor.userId, now);
    await recordSizesSubmitted(
      tx,
      actor,
      `gear sizes: finisher sleeve ${showSize(input.finisherSleeveSize, customFinisherSleeveSize)}, vest ${showSize(input.vestSize, customVestSize)}`,
      { item: 'gear', ...input, customFinisherSleeveSize, customVestSize },
    );
    return presentGearSizes(row);
  });
}

/** The code on the rider's QR sticker; it exists only once their payment is verified. */
export async function riderCode(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ riderCode: entries.riderCode, status: entries.status })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  if (row?.status !== 'verified' || !row.riderCode) {
    throw new NotFoundError(NO_RIDER_CODE_MESSAGE, 'NO_RIDER_CODE');
  }
  return row.riderCode;
}
