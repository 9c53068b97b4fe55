// Who counts as a rider in SQL: the rider roles (catalog RIDER_ROLES), and the verified
// ones among them (the kit tracker, ID cards and sample activities work on those).
import { RIDER_ROLES } from '@rally/shared/catalog';
import { and, eq, inArray } from 'drizzle-orm';
import { users } from '../db/schema/users';
import { verifications } from '../db/schema/verifications';

export const isRider = inArray(users.role, [...RIDER_ROLES]);

/** Needs `verifications` joined. */
export const isVerifiedRider = and(eq(verifications.status, 'verified'), isRider);
