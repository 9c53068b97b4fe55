import { isRiderRole } from '@rally/shared/catalog/accounts';
import type { UserRecord } from '@rally/shared/contracts/auth';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { files } from '../../db/schema/files';
import { fires } from '../../db/schema/social';
import { type UserRow, users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import { NotFoundError } from '../../lib/errors';

export interface UserRecordSource {
  user: UserRow;
  verification: { status: 'pending' | 'verified' | 'rejected'; verificationCode: string } | null;
  fires: number;
  hasProfileImage: boolean;
  hasPaymentReceipt: boolean;
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
    verificationStatus: src.verification?.status ?? null,
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
    // Editions in which the rider's entry was verified. Entries live on the account for the
    // current edition only until a new edition is made current (DESIGN.md §9).
    stats: {
      fires: src.fires,
      eventsParticipated: isRiderRole(u.role) && src.verification?.status === 'verified' ? 1 : 0,
    },
    createdAt: u.createdAt.toISOString(),
  };
}

/** Loads everything the user record needs in one round trip. */
export async function loadUserRecord(db: DbOrTx, userId: string): Promise<UserRecord> {
  const rows = await db
    .select({
      user: users,
      status: verifications.status,
      verificationCode: verifications.verificationCode,
      fires: sql<number>`(select count(*)::int from ${fires} where ${fires.receiverId} = ${users.id})`,
      hasProfileImage: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'profile_image')`,
      hasPaymentReceipt: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'payment_receipt')`,
    })
    .from(users)
    .leftJoin(verifications, eq(verifications.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  const row = rows[0];
  if (!row) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  return presentUserRecord({
    user: row.user,
    verification:
      row.status && row.verificationCode ? { status: row.status, verificationCode: row.verificationCode } : null,
    fires: Number(row.fires),
    hasProfileImage: !!row.hasProfileImage,
    hasPaymentReceipt: !!row.hasPaymentReceipt,
  });
}
