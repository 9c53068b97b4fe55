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
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import type { AuthContext } from '../../lib/authorize';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { ownVerification } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { presentGearSizes, presentTshirtStatus } from './rider-kit.presenter';

const sizeColumns = {
  tshirtSize: users.tshirtSize,
  customTshirtSize: users.customTshirtSize,
  tshirtSubmittedAt: users.tshirtSubmittedAt,
  finisherSleeveSize: users.finisherSleeveSize,
  customFinisherSleeveSize: users.customFinisherSleeveSize,
  vestSize: users.vestSize,
  customVestSize: users.customVestSize,
  gearSubmittedAt: users.gearSubmittedAt,
};

async function sizesOf(db: Db, userId: string) {
  const [row] = await db.select(sizeColumns).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  return row;
}

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
    const [row] = await tx
      .update(users)
      .set({
        tshirtSize: input.size,
        customTshirtSize: customSize,
        tshirtSubmittedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, actor.userId), isNull(users.tshirtSubmittedAt)))
      .returning(sizeColumns);
    if (!row) throw new ConflictError(TSHIRT_ALREADY_SUBMITTED, 'TSHIRT_SIZE_LOCKED');
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
    const [row] = await tx
      .update(users)
      .set({
        finisherSleeveSize: input.finisherSleeveSize,
        customFinisherSleeveSize,
        vestSize: input.vestSize,
        customVestSize,
        gearSubmittedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, actor.userId), isNull(users.gearSubmittedAt)))
      .returning(sizeColumns);
    if (!row) throw new ConflictError(GEAR_ALREADY_SUBMITTED, 'GEAR_SIZES_LOCKED');
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
    .select({ riderCode: users.riderCode, status: verifications.status })
    .from(users)
    .leftJoin(verifications, ownVerification)
    .where(eq(users.id, userId))
    .limit(1);
  if (row?.status !== 'verified' || !row.riderCode) {
    throw new NotFoundError(NO_RIDER_CODE_MESSAGE, 'NO_RIDER_CODE');
  }
  return row.riderCode;
}
