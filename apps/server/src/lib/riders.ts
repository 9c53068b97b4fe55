// Who counts as a rider in SQL: the rider roles (catalog RIDER_ROLES), and the verified
// ones among them (the kit tracker, ID cards and sample activities work on those).
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { entries } from '../db/schema/entries';
import { users } from '../db/schema/users';
import { type EditionRead, editionSql, inEdition } from './edition-of';

export const isRider = inArray(users.role, [...RIDER_ROLES]);

/**
 * A rider of `edition` (DESIGN.md §9; the current one when undefined): their entry is in it,
 * or they have none in any other (an account made without registering reads as before
 * editions). A returning rider who has not joined yet is an account, not an entry: the Users
 * tab lists them, the masterlist, exports, dashboard and analytics do not.
 */
export function enteredRiderIn(edition?: EditionRead) {
  const id = editionSql(edition);
  return and(
    isRider,
    or(
      sql`exists(select 1 from ${entries} entry where entry.user_id = ${users.id} and entry.edition_id = ${id})`,
      sql`not exists(select 1 from ${entries} other where other.user_id = ${users.id} and other.edition_id <> ${id})`,
    ),
  );
}

/** A rider of the current edition (`enteredRiderIn`). */
export const isEnteredRider = enteredRiderIn();

/**
 * The ON clause joining a user to their entry in `edition` (the current one when undefined):
 * a user has one per edition they entered, so a join without it lists them once per edition.
 * The entry holds the number, rider code, category, sizes and payment (`users` holds the person).
 */
export function entryIn(edition?: EditionRead) {
  return and(eq(entries.userId, users.id), inEdition(entries.editionId, edition));
}

/** The ON clause joining a user to their entry in the current edition (`entryIn`). */
export const ownEntry = entryIn();

/**
 * An entry that is a rider's (needs `users` joined to `entries`): it has a number, or its
 * account is a rider's. A staff account's own record in an edition is no entry.
 */
export const isRiderEntry = or(isNotNull(entries.riderNumber), isRider);

/** Needs `entries` joined (on `ownEntry`). */
export const isVerifiedRider = and(eq(entries.status, 'verified'), isRider);

/**
 * A rider as the course and the activity log name them: who (id), the name displayName
 * makes, the number and the kit name the board shows. Needs `entries` joined on `ownEntry`
 * (the number is the entry's).
 */
export const namedRiderColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  riderNumber: entries.riderNumber,
  kitName: users.kitName,
};

/**
 * A named rider with what their QR code is checked against: the code itself and the
 * payment's verification (needs `entries` joined on `ownEntry`). Sticker sheets and scans
 * read these.
 */
export const codedRiderColumns = {
  ...namedRiderColumns,
  riderCode: entries.riderCode,
  verificationStatus: entries.status,
};

/** The sizes of an entry, as the rider gave them (the current edition's: a returning rider sizes each year's kit). */
export const entrySizeColumns = {
  tshirtSize: entries.tshirtSize,
  customTshirtSize: entries.customTshirtSize,
  tshirtSubmittedAt: entries.tshirtSubmittedAt,
  finisherSleeveSize: entries.finisherSleeveSize,
  customFinisherSleeveSize: entries.customFinisherSleeveSize,
  vestSize: entries.vestSize,
  customVestSize: entries.customVestSize,
  gearSubmittedAt: entries.gearSubmittedAt,
};

/**
 * The entry's fields a user's record shows beside the person (needs `entries` joined on
 * `ownEntry`; all null without an entry in the edition read).
 */
export const recordEntryColumns = {
  riderNumber: entries.riderNumber,
  riderCode: entries.riderCode,
  category: entries.category,
  paymentMethod: entries.paymentMethod,
  paymentAmount: entries.paymentAmount,
  ...entrySizeColumns,
};
/** `recordEntryColumns` as read: a field of an entry, or null without one. */
export type RecordEntryFields = { [K in keyof typeof recordEntryColumns]: (typeof entries.$inferSelect)[K] | null };
