// Login attempts for staff: one user's history (User Management) and the whole list
// (logs). Entries of accounts the viewer may not see are left out, in SQL.
import type { Role } from '@rally/shared/catalog/accounts';
import type { LoginActivity } from '@rally/shared/contracts/users';
import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginActivities } from '../../db/schema/security';
import { users } from '../../db/schema/users';
import { pageOf, totalRows } from '../../lib/pagination';
import { containsPattern } from '../../lib/sql-text';
import { visibleAccounts } from '../../lib/visibility';
import { loadTarget } from '../users/users.queries';

const columns = {
  id: loginActivities.id,
  userId: loginActivities.userId,
  email: loginActivities.email,
  firstName: users.firstName,
  lastName: users.lastName,
  kitName: users.kitName,
  role: users.role,
  success: loginActivities.success,
  failureReason: loginActivities.failureReason,
  ip: loginActivities.ip,
  userAgent: loginActivities.userAgent,
  createdAt: loginActivities.createdAt,
};

type Row = {
  id: string;
  userId: string | null;
  email: string;
  firstName: string | null;
  lastName: string | null;
  kitName: string | null;
  role: Role | null;
  success: boolean;
  failureReason: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
};

function present(r: Row): LoginActivity {
  return {
    id: r.id,
    user_id: r.userId,
    email: r.email,
    first_name: r.firstName,
    last_name: r.lastName,
    kit_name: r.kitName,
    role_name: r.role,
    success: r.success,
    failure_reason: r.failureReason,
    ip_address: r.ip,
    user_agent: r.userAgent,
    created_at: r.createdAt.toISOString(),
  };
}

async function page(db: Db, where: SQL | undefined, pageNo: number, limit: number) {
  const { rows, pagination } = await pageOf(
    (limit, offset) =>
      db
        .select({ ...columns, total: totalRows })
        .from(loginActivities)
        .leftJoin(users, eq(users.id, loginActivities.userId))
        .where(where)
        .orderBy(desc(loginActivities.createdAt), desc(loginActivities.id))
        .limit(limit)
        .offset(offset),
    { page: pageNo, limit },
  );
  return { activities: rows.map((r) => present(r as Row)), pagination };
}

export async function userLoginActivity(db: Db, viewerRole: Role, userId: string, q: { page: number; limit: number }) {
  await loadTarget(db, viewerRole, userId);
  return page(db, eq(loginActivities.userId, userId), q.page, q.limit);
}

export async function listLoginActivities(
  db: Db,
  viewerRole: Role,
  q: { page: number; limit: number; search?: string; success?: 'true' | 'false' },
) {
  const pattern = q.search ? containsPattern(q.search) : null;
  const where = and(
    // Attempts on unknown emails (no user) stay visible; those of hidden accounts do not.
    visibleAccounts(viewerRole, users.role, { orphans: true }),
    pattern
      ? or(
          ilike(loginActivities.email, pattern),
          ilike(loginActivities.ip, pattern),
          ilike(users.kitName, pattern),
          ilike(users.firstName, pattern),
          ilike(users.lastName, pattern),
        )
      : undefined,
    q.success ? eq(loginActivities.success, q.success === 'true') : undefined,
  );
  return page(db, where, q.page, q.limit);
}
