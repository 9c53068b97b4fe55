import { normaliseCategory, type Prices, paymentAmountFor } from '@rally/shared/catalog/registration';
import type { RegistrationInput } from '@rally/shared/contracts/auth';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { ClientInfo } from '../../lib/client-address';
import { assertUncommonPassword } from '../../lib/common-passwords';
import { CURRENT_EDITION } from '../../lib/edition-of';
import { ConflictError, isUniqueViolation } from '../../lib/errors';
import { insertFiles, type NewFileRow } from '../../lib/file-bytes';
import { databaseFileStore, type FileStore, placeUpload } from '../../lib/file-store';
import type { PendingUpload } from '../../lib/files';
import { KeyedQueue } from '../../lib/keyed-queue';
import { hashPassword } from '../../lib/passwords';
import { oncePerDb } from '../../lib/per-db';
import { challengeRequired, type ProofOfWork } from '../../lib/proof-of-work';
import { countHit, currentHits } from '../../lib/rate-limit-store';
import { displayName, onlyRow } from '../../lib/sql-text';
import { newVerificationCode } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { createSession } from '../auth/auth.service';
import { assertRegistrationOpen, pricesOf } from '../editions/editions.service';
import { assertNotHeldFromOthers } from '../editions/held-numbers';
import { queueNewAccountFiles } from '../file-jobs/file-work';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyUser } from '../messages/notify';
import { assertCurrentNotice, recordNoticeConsent } from '../privacy/consents.service';

export const riderNumberTaken = (n: number) =>
  new ConflictError(`Rider number ${n} is already taken`, 'RIDER_NUMBER_TAKEN');
export const emailTaken = () =>
  new ConflictError('An account with this email already exists. Please log in instead.', 'EMAIL_TAKEN');

async function precheck(db: Db, email: string, riderNumber: number) {
  // Cheap look-ups first, so a taken number or email costs no password hash.
  const [row] = await db
    .select({
      emailTaken: sql<boolean>`exists(select 1 from ${users} where lower(${users.email}) = ${email.toLowerCase()})`,
      // Numbers are unique per edition: a past edition's holder does not block it.
      numberTaken: sql<boolean>`exists(select 1 from ${entries} where ${entries.riderNumber} = ${riderNumber} and ${entries.editionId} = ${CURRENT_EDITION})`,
    })
    .from(sql`(select 1) as one`);
  if (row?.emailTaken) throw emailTaken();
  if (row?.numberTaken) throw riderNumberTaken(riderNumber);
}

/** The window registrations are counted in, per address, for the challenge threshold. */
export const REGISTRATION_WINDOW_MS = 3_600_000;
const registrationsKey = (address: string) => `registrations ${address}`;

/**
 * Lets a registration in, or asks for work: the first `threshold` registrations of an
 * address in the hour need nothing (a phone on weak data is never slowed), every later one
 * a solved proof-of-work challenge (lib/proof-of-work.ts) and never a refusal, because one
 * address is often a whole club on one Wi-Fi or a carrier's NAT. Every attempt counts, in
 * the database (one count for every instance), whatever becomes of it.
 */
export async function admitRegistration(
  db: Db,
  pow: ProofOfWork,
  attempt: { address: string; threshold: number; solved: string | undefined },
): Promise<void> {
  const { current } = await countHit(db, registrationsKey(attempt.address), REGISTRATION_WINDOW_MS);
  if (current <= attempt.threshold) return;
  if (!attempt.solved) throw challengeRequired();
  await pow.redeem(attempt.solved);
}

/**
 * Whether the address's next registration must carry a solved challenge: it would be past
 * the threshold (admitRegistration counts it first). Asked by the form before it uploads
 * anything, so a busy network's rider sends the files once; asking counts nothing.
 */
export async function needsChallenge(db: Db, attempt: { address: string; threshold: number }): Promise<boolean> {
  return (await currentHits(db, registrationsKey(attempt.address))) + 1 > attempt.threshold;
}

export interface RegistrationResult {
  userId: string;
  token: string;
  verificationCode: string;
}

/**
 * Registrations of the same rider number, one after another inside this process (per
 * database handle). The second claim of a number then re-checks it after the first has
 * committed and is refused before it costs any image decoding or password hash; claims of
 * different numbers never wait for each other. Across processes the unique index on
 * rider_number still decides.
 */
const numberQueue = oncePerDb(() => new KeyedQueue<number>());

/** Runs `claim` once no other claim of rider number `n` is in progress in this process. */
function withRiderNumber<T>(db: Db, n: number, claim: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return numberQueue(db).run(n, claim, signal);
}

/**
 * Account, rider number, verification record, files and session land in one
 * transaction, or none of them do. The unique index on rider_number decides races.
 *
 * Order of work, cheapest refusal first: the email and number look-up, then the uploads'
 * cheap checks (type by magic bytes, image header, completeness), and only then the
 * expensive part, hashing the password (on argon2's native threads). The images are stored
 * as sent and processed by the file queue once the registration has committed.
 */
export async function register(
  db: Db,
  input: RegistrationInput,
  inspectUploads: () => Promise<PendingUpload[]>,
  client: ClientInfo,
  signal?: AbortSignal,
  store: FileStore = databaseFileStore,
  messenger: Messenger = SILENT_MESSENGER,
  now: Date = new Date(),
): Promise<RegistrationResult> {
  // After the payload's own checks (at the route), before any queue or look-up: a common
  // password is refused whatever else is free.
  assertUncommonPassword(input.password);
  return withRiderNumber(
    db,
    input.riderNumber,
    async () => {
      // Outside the current edition's window nothing else is looked at (DESIGN.md §9). Checked
      // inside the queue, not before it: claims of one number enter the queue in the order
      // they arrived, and an awaited look-up before it could let a later one overtake.
      const edition = await assertRegistrationOpen(db, now);
      await precheck(db, input.email, input.riderNumber);
      // A stale privacy notice version is refused before any work (and again as it is recorded).
      if (input.consentVersion !== undefined) await assertCurrentNotice(db, input.consentVersion);
      await assertNotHeldFromOthers(db, input.riderNumber, null, now);
      const pending = await inspectUploads();
      const [uploads, passwordHash] = await Promise.all([
        Promise.all(pending.map((finish) => finish())),
        hashPassword(input.password),
      ]);
      // In an object store the files are put first; they are removed again when the
      // registration does not commit, so a refused rider leaves nothing behind.
      const placed = await Promise.all(
        uploads.map(async (file) => ({ file, placement: await placeUpload(store, file) })),
      );
      try {
        return await insertRegistration(db, input, placed, passwordHash, client, messenger, pricesOf(edition));
      } catch (err) {
        await store.remove(placed.flatMap((p) => (p.placement.storageKey ? [p.placement.storageKey] : [])));
        throw err;
      }
    },
    signal,
  );
}

async function insertRegistration(
  db: Db,
  input: RegistrationInput,
  uploads: Omit<NewFileRow, 'userId'>[],
  passwordHash: string,
  client: ClientInfo,
  messenger: Messenger,
  prices: Prices,
): Promise<RegistrationResult> {
  const category = normaliseCategory(input.category, input.gender);
  const custom = (size: string, text: string | undefined) => (size === 'CUSTOM' ? (text ?? null) : null);
  try {
    return await db.transaction(async (tx) => {
      const user = onlyRow(
        await tx
          .insert(users)
          .values({
            email: input.email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            kitName: input.kitName ?? null,
            phoneNumber: input.phoneNumber,
            address: input.address ?? null,
            gender: input.gender ?? null,
            birthdate: input.birthdate ?? null,
            motorcycleModel: input.motorcycleModel ?? null,
            clubName: input.clubName ?? null,
            emergencyContactName: input.emergencyContactName ?? null,
            emergencyContactNumber: input.emergencyContactNumber ?? null,
            bloodType: input.bloodType ?? null,
            allergies: input.allergies ?? null,
            medicalConditions: input.medicalConditions ?? null,
          })
          .returning({ id: users.id }),
      );
      const verificationCode = newVerificationCode();
      // The entry in the current edition: number, category, payment and sizes (DESIGN.md §9).
      await tx.insert(entries).values({
        userId: user.id,
        verificationCode,
        status: 'pending',
        riderNumber: input.riderNumber,
        category,
        paymentMethod: input.paymentMethod ?? null,
        paymentAmount: paymentAmountFor(category, prices),
        tshirtSize: input.tshirtSize,
        customTshirtSize: custom(input.tshirtSize, input.customTshirtSize),
        tshirtSubmittedAt: new Date(),
        finisherSleeveSize: input.finisherSleeveSize,
        customFinisherSleeveSize: custom(input.finisherSleeveSize, input.customFinisherSleeveSize),
        vestSize: input.vestSize,
        customVestSize: custom(input.vestSize, input.customVestSize),
        gearSubmittedAt: new Date(),
      });
      await insertFiles(
        db,
        tx,
        uploads.map((u) => ({ userId: user.id, ...u })),
      );
      // The images are stored as sent: processing them is the file queue's (DESIGN.md §13).
      await queueNewAccountFiles(tx, user.id);
      await recordActivity(tx, {
        type: 'user_registration',
        userId: user.id,
        userName: displayName(input),
        description: `${displayName(input)} registered for ${category.toUpperCase()} as rider #${input.riderNumber}`,
        details: `Payment: ${input.paymentMethod ?? 'not chosen'}; code ${verificationCode}`,
        location: input.address ?? null,
        metadata: { riderNumber: input.riderNumber, category, files: uploads.map((u) => u.file.kind) },
      });
      // The notice the form showed, accepted (DESIGN.md §12); without it the rider is asked later.
      if (input.consentVersion !== undefined)
        await recordNoticeConsent(tx, user.id, input.consentVersion, 'registration');
      // The rider's receipt, with the code staff look them up by.
      await notifyUser(tx, messenger, user.id, 'registration_received', {
        firstName: input.firstName,
        verificationCode,
      });
      const token = await createSession(tx, user.id, client);
      return { userId: user.id, token, verificationCode };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'entries_rider_number_uq')) throw riderNumberTaken(input.riderNumber);
    if (isUniqueViolation(err, 'users_email_lower_uq')) throw emailTaken();
    throw err;
  }
}
