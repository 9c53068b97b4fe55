import { isRiderRole } from '@rally/shared/catalog/accounts';
import type { UserRecord } from '@rally/shared/contracts/auth';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { fires } from '../../db/schema/social';
import { type UserRow, users } from '../../db/schema/users';
import { NotFoundError } from '../../lib/errors';
import { isRider, ownEntry, type RecordEntryFields, recordEntryColumns } from '../../lib/riders';

const NO_ENTRY = Object.fromEntries(Object.keys(recordEntryColumns).map((k) => [k, null])) as RecordEntryFields;

/**
 * SQL: how many entries in closed editions the user had (`extra` narrows them); a staff
 * account's own record is none (lib/riders.ts `isRiderEntry`).
 */
function pastEntries(extra: SQL = sql`true`) {
  return sql<number>`(select count(*)::int from ${entries} pe join ${editions} pe_ed on pe_ed.id = pe.edition_id
    where pe.user_id = ${users.id} and pe_ed.closed_at is not null and (pe.rider_number is not null or ${isRider}) and ${extra})`;
}

export interface UserRecordSource {
  /** The person and their entry in the edition (DESIGN.md §9). */
  user: UserRow & RecordEntryFields;
  verification: { status: 'pending' | 'verified' | 'rejected'; verificationCode: string } | null;
  fires: number;
  hasProfileImage: boolean;
  hasPaymentReceipt: boolean;
  /** The rider's entries in past editions: how many, and how many were verified. */
  pastEntries: { all: number; verified: number };
}

/** The user record the rider site keeps as userData (camelCase). */
export function presentUserRecord(src: UserRecordSource): UserRecord {
  const u = src.user;
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    kitName: u.kitName,
    email: u.email,
    phoneNumber: u.phoneNumber,
    address: u.address,
    birthdate: u.birthdate,
    gender: u.gender,
    role: u.role,
    status: u.status,
    // A rider who rode before and has no entry in the current edition is offered to join it.
    verificationStatus:
      src.verification?.status ?? (isRiderRole(u.role) && src.pastEntries.all > 0 ? 'not_entered' : null),
    verificationCode: src.verification?.verificationCode ?? null,
    riderNumber: u.riderNumber,
    riderCode: src.verification?.status === 'verified' ? u.riderCode : null,
    category: u.category,
    paymentMethod: u.paymentMethod,
    paymentAmount: u.paymentAmount,
    motorcycleModel: u.motorcycleModel,
    clubName: u.clubName,
    emergencyContactName: u.emergencyContactName,
    emergencyContactNumber: u.emergencyContactNumber,
    bloodType: u.bloodType,
    allergies: u.allergies,
    medicalConditions: u.medicalConditions,
    tshirtSize: u.tshirtSize,
    customTshirtSize: u.customTshirtSize,
    finisherSleeveSize: u.finisherSleeveSize,
    customFinisherSleeveSize: u.customFinisherSleeveSize,
    vestSize: u.vestSize,
    customVestSize: u.customVestSize,
    hasProfileImage: src.hasProfileImage,
    hasPaymentReceipt: src.hasPaymentReceipt,
    participantDetails: {
      kitName: u.kitName,
      motorcycleModel: u.motorcycleModel,
      emergencyContactName: u.emergencyContactName,
      emergencyContactNumber: u.emergencyContactNumber,
      riderNumber: u.riderNumber,
      category: u.category,
    },
    clubInfo: { riderNumber: u.riderNumber, clubName: u.clubName },
    bikeInfo: { model: u.motorcycleModel, category: u.category },
    // Editions in which the rider's entry was verified: the past ones and the current (DESIGN.md §9).
    stats: {
      fires: src.fires,
      eventsParticipated:
        src.pastEntries.verified + (isRiderRole(u.role) && src.verification?.status === 'verified' ? 1 : 0),
    },
    createdAt: u.createdAt.toISOString(),
  };
}

/** Loads everything the user record needs in one round trip. */
export async function loadUserRecord(db: DbOrTx, userId: string): Promise<UserRecord> {
  const rows = await db
    .select({
      user: users,
      // The entry's id first: Drizzle reads a left-joined object as absent when its first field is null.
      entry: { id: entries.id, ...recordEntryColumns },
      status: entries.status,
      verificationCode: entries.verificationCode,
      fires: sql<number>`(select count(*)::int from ${fires} where ${fires.receiverId} = ${users.id})`,
      hasProfileImage: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'profile_image')`,
      // Receipts of past entries are kept superseded; this entry's is the one not superseded.
      hasPaymentReceipt: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'payment_receipt' and ${files.supersededAt} is null)`,
      pastAll: pastEntries(),
      pastVerified: pastEntries(sql`pe.status = 'verified'`),
    })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  const row = rows[0];
  if (!row) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  return presentUserRecord({
    user: { ...row.user, ...(row.entry ?? NO_ENTRY), id: row.user.id },
    verification:
      row.status && row.verificationCode ? { status: row.status, verificationCode: row.verificationCode } : null,
    fires: Number(row.fires),
    hasProfileImage: !!row.hasProfileImage,
    hasPaymentReceipt: !!row.hasPaymentReceipt,
    pastEntries: { all: Number(row.pastAll), verified: Number(row.pastVerified) },
  });
}
