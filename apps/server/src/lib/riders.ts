// Who counts as a rider in SQL: the rider roles (catalog RIDER_ROLES), and the verified
// ones among them (the kit tracker, ID cards and sample activities work on those).
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { editionEntries } from '../db/schema/editions';
import { users } from '../db/schema/users';
import { verifications } from '../db/schema/verifications';
import { CURRENT_EDITION, inEdition } from './edition-of';

export const isRider = inArray(users.role, [...RIDER_ROLES]);

/**
 * A rider of the current edition (DESIGN.md §9): their entry (a verification record) is in
 * it, or they rode no edition before it (an install's first edition reads as before
 * editions). A returning rider who has not joined yet is an account, not an entry: the Users
 * tab lists them, the masterlist, exports, dashboard and analytics do not.
 */
export const isEnteredRider = and(
  isRider,
  or(
    sql`exists(select 1 from ${verifications} entry where entry.user_id = ${users.id} and entry.edition_id = ${CURRENT_EDITION})`,
    sql`not exists(select 1 from ${editionEntries} past where past.user_id = ${users.id})`,
  ),
);

/**
 * The ON clause joining a user to their entry (verification) in the edition read: a user
 * has one per edition they entered, so a join without it lists them once per edition.
 */
export const ownVerification = and(eq(verifications.userId, users.id), inEdition(verifications.editionId));

/** Needs `verifications` joined (on `ownVerification`). */
export const isVerifiedRider = and(eq(verifications.status, 'verified'), isRider);

/**
 * A rider as the course and the activity log name them: who (id), the name displayName
 * makes, the number and the kit name the board shows.
 */
export const namedRiderColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  riderNumber: users.riderNumber,
  kitName: users.kitName,
};

/**
 * A named rider with what their QR code is checked against: the code itself and the
 * payment's verification (needs `verifications` joined on `ownVerification`). Sticker sheets
 * and scans read these.
 */
export const codedRiderColumns = {
  ...namedRiderColumns,
  riderCode: users.riderCode,
  verificationStatus: verifications.status,
};
