import type { AdminUser } from '@rally/shared/contracts/users';
import { getTableColumns, sql } from 'drizzle-orm';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { fires } from '../../db/schema/social';
import { users } from '../../db/schema/users';
import { type RecordEntryFields, recordEntryColumns } from '../../lib/riders';

/**
 * The columns one staff-list row needs, for a select over `users` left-joined to
 * `entries` on `entryIn(edition)` (lib/riders.ts: the entry of the edition read only, so a
 * rider of several editions is one row). Counts and flags are correlated sub-selects on indexed columns, so a
 * page of 20 costs one round trip.
 */
const { passwordHash: _passwordHash, ...personColumns } = getTableColumns(users);

/**
 * The person (`users`) and their entry in the edition read (`entries`, DESIGN.md §9), as one
 * record. Without an entry the entry's fields read as an account without one always did:
 * null, and the kit and bike statuses and checkpoints at their starting values.
 */
const userColumns = {
  ...personColumns,
  ...recordEntryColumns,
  bikeCheckStatus: sql<string>`coalesce(${entries.bikeCheckStatus}, 'Not Started')`,
  riderKitStatus: sql<string>`coalesce(${entries.riderKitStatus}, 'Preparing')`,
  checkpoints: sql<number>`coalesce(${entries.checkpoints}, 0)`.mapWith(Number),
};

export const adminUserColumns = {
  user: userColumns,
  verificationStatus: entries.status,
  verificationCode: entries.verificationCode,
  fires: sql<number>`(select count(*)::int from ${fires} where ${fires.receiverId} = ${users.id})`.mapWith(Number),
  hasPaymentReceipt: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'payment_receipt')`,
  hasProfileImage: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'profile_image')`,
};

export interface AdminUserRow {
  user: Omit<typeof users.$inferSelect, 'passwordHash'> &
    RecordEntryFields & {
      bikeCheckStatus: string;
      riderKitStatus: string;
      checkpoints: number;
    };
  verificationStatus: 'pending' | 'verified' | 'rejected' | null;
  verificationCode: string | null;
  fires: number;
  hasPaymentReceipt: boolean;
  hasProfileImage: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The snake_case shape of a user in staff lists; the password hash never leaves. */
export function presentAdminUser(row: AdminUserRow): AdminUser {
  const u = row.user;
  return {
    id: u.id,
    kit_name: u.kitName,
    first_name: u.firstName,
    last_name: u.lastName,
    role_name: u.role,
    category: u.category,
    gender: u.gender,
    motorcycle_model: u.motorcycleModel,
    phone_number: u.phoneNumber,
    email: u.email,
    address: u.address,
    birthdate: u.birthdate,
    rider_number: u.riderNumber,
    rider_code: row.verificationStatus === 'verified' ? u.riderCode : null,
    club_name: u.clubName,
    emergency_contact_name: u.emergencyContactName,
    emergency_contact_number: u.emergencyContactNumber,
    tshirt_size: u.tshirtSize,
    custom_tshirt_size: u.customTshirtSize,
    tshirt_submitted_at: iso(u.tshirtSubmittedAt),
    finisher_sleeve_size: u.finisherSleeveSize,
    vest_size: u.vestSize,
    custom_finisher_sleeve_size: u.customFinisherSleeveSize,
    custom_vest_size: u.customVestSize,
    payment_method: u.paymentMethod,
    payment_amount: u.paymentAmount,
    status: u.status,
    verification_status: row.verificationStatus,
    verification_code: row.verificationCode,
    has_payment_receipt: !!row.hasPaymentReceipt,
    has_profile_image: !!row.hasProfileImage,
    fires: Number(row.fires),
    checkpoints: u.checkpoints,
    bike_check_status: u.bikeCheckStatus,
    rider_kit_status: u.riderKitStatus,
    last_login: iso(u.lastLogin),
    created_at: u.createdAt.toISOString(),
  };
}
