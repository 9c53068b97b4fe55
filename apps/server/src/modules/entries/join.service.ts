// A returning rider joins the current edition (DESIGN.md §9): the registration's rider part,
// prefilled from their last entry, their previous number offered while it is held, a new
// receipt, then the usual verification.
import { isRiderRole } from '@rally/shared/catalog/accounts';
import { registrationState } from '@rally/shared/catalog/editions';
import { normaliseCategory, paymentAmountFor } from '@rally/shared/catalog/registration';
import type { EntryInput } from '@rally/shared/contracts/auth';
import type { NextEntry } from '@rally/shared/contracts/editions';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { inEdition } from '../../lib/edition-of';
import { ConflictError, ForbiddenError, isUniqueViolation, NotFoundError } from '../../lib/errors';
import { insertFiles } from '../../lib/file-bytes';
import { databaseFileStore, type FileStore, placeUpload } from '../../lib/file-store';
import type { PendingUpload } from '../../lib/files';
import { ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { newVerificationCode } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { assertRegistrationOpen, currentEdition, pricesOf, windowOf } from '../editions/editions.service';
import { assertNotHeldFromOthers, heldFor } from '../editions/held-numbers';
import { queueCurrentFile } from '../file-jobs/file-work';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyUser } from '../messages/notify';
import { assertCurrentNotice, recordNoticeConsent } from '../privacy/consents.service';
import { riderNumberTaken } from '../registration/registration.service';
import { pastEntriesOf } from './entries.service';

/** What the "Join <edition>" form starts from. */
export async function nextEntry(db: DbOrTx, userId: string, now: Date): Promise<NextEntry> {
  const edition = await currentEdition(db);
  const [account] = await db
    .select({
      entered: entries.id,
      emergencyName: users.emergencyContactName,
      emergencyNumber: users.emergencyContactNumber,
    })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  const [last] = await pastEntriesOf(db, userId, 1);
  const held = await heldFor(db, userId, now);
  const window = windowOf(edition);
  return {
    edition: {
      id: edition.id,
      name: edition.name,
      year: edition.year,
      ...window,
      registration: registrationState(window, now),
    },
    entered: account.entered !== null,
    prefill: last
      ? {
          fromEdition: last.edition.name,
          category: last.entry.category,
          kitName: last.entry.kitName,
          motorcycleModel: last.entry.motorcycleModel,
          // The person's contact as it is now: they may have updated it since.
          emergencyContactName: account.emergencyName,
          emergencyContactNumber: account.emergencyNumber,
          paymentMethod: last.entry.paymentMethod,
          tshirtSize: last.entry.tshirtSize,
          customTshirtSize: last.entry.customTshirtSize,
          finisherSleeveSize: last.entry.finisherSleeveSize,
          customFinisherSleeveSize: last.entry.customFinisherSleeveSize,
          vestSize: last.entry.vestSize,
          customVestSize: last.entry.customVestSize,
        }
      : null,
    heldNumber: held?.riderNumber ?? null,
    heldUntil: held?.until.toISOString() ?? null,
  };
}

export interface CreatedEntry {
  id: string;
  editionId: string;
  riderNumber: number;
  category: string;
  verificationCode: string;
  verificationStatus: 'pending';
}

/**
 * The rider's entry in the current edition, with its receipt, in one transaction. Refused
 * (nothing kept) outside the window, for staff, when they already entered, and for a number
 * another rider has or that is held for someone else.
 */
export async function createEntry(
  db: Db,
  userId: string,
  input: EntryInput,
  inspectReceipt: () => Promise<PendingUpload[]>,
  now: Date,
  store: FileStore = databaseFileStore,
  messenger: Messenger = SILENT_MESSENGER,
): Promise<CreatedEntry> {
  const edition = await assertRegistrationOpen(db, now);
  const prices = pricesOf(edition);
  const [account] = await db
    .select({ user: users, entered: entries.id })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  const { user } = account;
  if (!isRiderRole(user.role)) throw new ForbiddenError('Only rider accounts enter an edition', 'NOT_A_RIDER');
  if (account.entered) throw new ConflictError(`You have already entered ${edition.name}`, 'ENTRY_EXISTS');
  const [holder] = await db
    .select({ id: entries.userId })
    .from(entries)
    .where(and(eq(entries.riderNumber, input.riderNumber), inEdition(entries.editionId)))
    .limit(1);
  if (holder && holder.id !== userId) throw riderNumberTaken(input.riderNumber);
  await assertNotHeldFromOthers(db, input.riderNumber, userId, now);
  // A stale privacy notice version is refused before any work (and again as it is recorded).
  if (input.consentVersion !== undefined) await assertCurrentNotice(db, input.consentVersion);

  const uploads = await Promise.all((await inspectReceipt()).map((finish) => finish()));
  const placed = await Promise.all(uploads.map(async (file) => ({ file, placement: await placeUpload(store, file) })));
  const category = normaliseCategory(input.category, user.gender);
  const custom = (size: string, value: string | undefined) => (size === 'CUSTOM' ? (value ?? null) : null);
  const verificationCode = newVerificationCode();
  try {
    return await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          kitName: input.kitName ?? user.kitName,
          motorcycleModel: input.motorcycleModel ?? user.motorcycleModel,
          emergencyContactName: input.emergencyContactName ?? user.emergencyContactName,
          emergencyContactNumber: input.emergencyContactNumber ?? user.emergencyContactNumber,
          updatedAt: now,
        })
        .where(eq(users.id, userId));
      const [verification] = await tx
        .insert(entries)
        .values({
          userId,
          verificationCode,
          status: 'pending',
          riderNumber: input.riderNumber,
          category,
          paymentMethod: input.paymentMethod ?? null,
          paymentAmount: paymentAmountFor(category, prices),
          tshirtSize: input.tshirtSize,
          customTshirtSize: custom(input.tshirtSize, input.customTshirtSize),
          tshirtSubmittedAt: now,
          finisherSleeveSize: input.finisherSleeveSize,
          customFinisherSleeveSize: custom(input.finisherSleeveSize, input.customFinisherSleeveSize),
          vestSize: input.vestSize,
          customVestSize: custom(input.vestSize, input.customVestSize),
          gearSubmittedAt: now,
        })
        .returning({ id: entries.id });
      // A receipt sent since the rollover, before this entry, gives way to the entry's own.
      if (placed.length > 0)
        await tx
          .update(files)
          .set({ supersededAt: now })
          .where(and(eq(files.userId, userId), eq(files.kind, 'payment_receipt'), isNull(files.supersededAt)));
      await insertFiles(
        db,
        tx,
        placed.map((p) => ({ userId, ...p })),
      );
      // The receipt was stored as sent: processed and read by the file queue (DESIGN.md §13).
      for (const { file } of placed) await queueCurrentFile(tx, userId, file.kind, file.status ?? 'ready');
      await recordActivity(tx, {
        type: 'user_registration',
        userId,
        userName: displayName(user),
        description: `${displayName(user)} entered ${edition.name} for ${category.toUpperCase()} as rider #${input.riderNumber}`,
        details: `Payment: ${input.paymentMethod ?? 'not chosen'}; code ${verificationCode}`,
        metadata: { riderNumber: input.riderNumber, category, editionId: edition.id, returning: true },
      });
      if (input.consentVersion !== undefined) await recordNoticeConsent(tx, userId, input.consentVersion, 'join');
      await notifyUser(tx, messenger, userId, 'registration_received', {
        firstName: user.firstName,
        verificationCode,
      });
      return {
        id: (verification as { id: string }).id,
        editionId: edition.id,
        riderNumber: input.riderNumber,
        category,
        verificationCode,
        verificationStatus: 'pending' as const,
      };
    });
  } catch (err) {
    await store.remove(placed.flatMap((p) => (p.placement.storageKey ? [p.placement.storageKey] : [])));
    if (isUniqueViolation(err, 'entries_rider_number_uq')) throw riderNumberTaken(input.riderNumber);
    if (isUniqueViolation(err, 'entries_user_uq'))
      throw new ConflictError(`You have already entered ${edition.name}`, 'ENTRY_EXISTS');
    throw err;
  }
}
