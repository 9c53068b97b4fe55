// Staff-issued reset links. The link itself is made by password-resets.service (one hour,
// single use, voids older links); this module adds who may issue one for whom.
import type { ResetUsersQuery } from '@rally/shared/contracts/password-resets';
import { canSeeAccount, hiddenRolesFor } from '@rally/shared/permissions';
import { and, asc, eq, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import type { Actor } from '../kit-tracking/actor';
import { containsPattern } from '../logs/sql-text';
import { createResetLink } from '../password-resets/password-resets.service';

export const SELF_RESET_MESSAGE =
  'You cannot generate a reset link for your own account. Ask another administrator, or use the operator command line.';

/**
 * Visibility rules apply: an account the viewer may not see is "not found". A staff
 * member may not issue a link for themselves either: a stolen session could otherwise
 * turn itself into a permanent takeover of the account.
 */
export async function generateForUser(
  db: Db,
  targetId: string,
  actor: Actor & { role: string },
  publicUrl: string,
  now: Date = new Date(),
) {
  const [target] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.id, targetId))
    .limit(1);
  if (!target || !canSeeAccount(actor.role, target.role)) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  if (target.id === actor.id) throw new ForbiddenError(SELF_RESET_MESSAGE, 'SELF_RESET');
  return createResetLink(db, target.id, publicUrl, { id: actor.id, name: actor.name }, now);
}

/** Accounts the viewer may issue links for (never themselves), searchable by name, email and kit name. */
export async function listResetUsers(db: Db, query: ResetUsersQuery, viewer: { id: string; role: string }) {
  const hidden = hiddenRolesFor(viewer.role);
  const p = query.search ? containsPattern(query.search) : null;
  const where = and(
    ne(users.id, viewer.id),
    hidden.length > 0 ? notInArray(users.role, hidden) : undefined,
    p
      ? or(
          sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
          sql`${users.email} ilike ${p}`,
          sql`${users.kitName} ilike ${p}`,
        )
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: users.id,
        first_name: users.firstName,
        last_name: users.lastName,
        kit_name: users.kitName,
        email: users.email,
        role: users.role,
      })
      .from(users)
      .where(where)
      .orderBy(asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.lastName})`), asc(users.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { rows, total };
}
