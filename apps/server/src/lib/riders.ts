// Who counts as a rider in SQL: the rider roles (catalog RIDER_ROLES), and the verified
// ones among them (the kit tracker, ID cards and sample activities work on those).
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import { and, eq, inArray } from 'drizzle-orm';
import { users } from '../db/schema/users';
import { verifications } from '../db/schema/verifications';

export const isRider = inArray(users.role, [...RIDER_ROLES]);

/** Needs `verifications` joined. */
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
 * payment's verification (needs `verifications` joined). Sticker sheets and scans read these.
 */
export const codedRiderColumns = {
  ...namedRiderColumns,
  riderCode: users.riderCode,
  verificationStatus: verifications.status,
};
