// Reads of the staff console over users: the visibility rule in SQL, the paginated
// users list, one user, and the Participant Masterlist.
import type { Role } from '@rally/shared/catalog/accounts';
import type { ListUsersQuery, MasterlistStats } from '@rally/shared/contracts/users';
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { EditionRead } from '../../lib/edition-of';
import { NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { enteredRiderIn, entryIn, ownEntry } from '../../lib/riders';
import { containsPattern, onlyRow } from '../../lib/sql-text';
import { visibleAccounts, visibleOrNotFound } from '../../lib/visibility';
import { referenceMatches } from '../receipts/receipt-search';
import { type AdminUserRow, adminUserColumns, presentAdminUser } from './users.presenter';

export const USER_NOT_FOUND = 'User not found';
export const userNotFound = () => new NotFoundError(USER_NOT_FOUND, 'USER_NOT_FOUND');

/**
 * The visibility rule (lib/visibility.ts) as a condition on `users`. Every staff read and
 * write over users adds it, so an account one cannot see behaves exactly like a missing one.
 */
export function visibleTo(viewerRole: Role): SQL | undefined {
  return visibleAccounts(viewerRole, users.role);
}

/**
 * Search by kit name, full name, email or receipt reference number; with `byRiderNumber`,
 * a number ('42' or '#42') also finds that rider number (then `entries` must be joined on
 * `entryIn`: the number of the edition read).
 */
export function userSearch(search: string | undefined, byRiderNumber = false): SQL | undefined {
  if (!search) return undefined;
  const pattern = containsPattern(search);
  const number = /^#?(\d{1,4})$/.exec(search);
  return or(
    ilike(users.kitName, pattern),
    ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
    ilike(users.email, pattern),
    byRiderNumber && number ? eq(entries.riderNumber, Number(number[1])) : undefined,
    // A receipt's reference number, typed with or without its spaces.
    referenceMatches(users.id, search),
  );
}

function categoryFilter(category: ListUsersQuery['category']): SQL | undefined {
  if (!category) return undefined;
  return category === 'not_set' ? isNull(entries.category) : eq(entries.category, category);
}

function riderNumberFilter(filter: ListUsersQuery['riderNumber']): SQL | undefined {
  if (filter === 'with') return isNotNull(entries.riderNumber);
  if (filter === 'without') return isNull(entries.riderNumber);
  return undefined;
}

/**
 * GET /admin/users: accounts the viewer may see whose entry in `edition` (the current one
 * when undefined) is verified, filtered and paginated in SQL.
 */
export async function listUsers(db: DbOrTx, viewerRole: Role, q: ListUsersQuery, edition?: EditionRead) {
  const where = and(
    eq(entries.status, 'verified'),
    visibleTo(viewerRole),
    userSearch(q.search),
    q.role ? eq(users.role, q.role) : undefined,
    categoryFilter(q.category),
    riderNumberFilter(q.riderNumber),
    q.status ? eq(users.status, q.status) : undefined,
  );
  const { rows, pagination } = await pageOf(
    (limit, offset) =>
      db
        .select({ ...adminUserColumns, total: totalRows })
        .from(users)
        .innerJoin(entries, entryIn(edition))
        .where(where)
        .orderBy(desc(users.createdAt), asc(users.id))
        .limit(limit)
        .offset(offset),
    q,
  );
  return { users: rows.map((r) => presentAdminUser(r as AdminUserRow)), pagination };
}

/**
 * One user the viewer may see, in the staff shape, with their entry in `edition` (the current
 * one when undefined); 404 'User not found' otherwise.
 */
export async function getAdminUser(db: DbOrTx, viewerRole: Role, userId: string, edition?: EditionRead) {
  const [row] = await db
    .select(adminUserColumns)
    .from(users)
    .leftJoin(entries, entryIn(edition))
    .where(and(eq(users.id, userId), visibleTo(viewerRole)))
    .limit(1);
  if (!row) throw userNotFound();
  return presentAdminUser(row as AdminUserRow);
}

export interface TargetUser {
  id: string;
  role: Role;
  status: 'active' | 'inactive';
  firstName: string;
  lastName: string;
  kitName: string | null;
  email: string;
  riderNumber: number | null;
}

/** The account a staff write names, whoever may see it (loadTarget adds the visibility check). */
export async function findTarget(db: DbOrTx, userId: string): Promise<TargetUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      role: users.role,
      status: users.status,
      firstName: users.firstName,
      lastName: users.lastName,
      kitName: users.kitName,
      email: users.email,
      riderNumber: entries.riderNumber,
    })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** The subject of a staff write, if the viewer may see it; 404 otherwise. */
export async function loadTarget(db: DbOrTx, viewerRole: Role, userId: string): Promise<TargetUser> {
  return visibleOrNotFound(viewerRole, await findTarget(db, userId), userNotFound);
}

/**
 * The masterlist's population in `edition` (the current one when undefined): its riders and
 * anyone holding a rider number in it, as far as the viewer may see them (needs `entries`
 * joined on `entryIn(edition)`). Only those with a number are listed; the counters cover
 * the whole population, so 'With Rider #' can be below 'Total Participants'.
 */
export function masterlistPopulation(viewerRole: Role, edition?: EditionRead): SQL | undefined {
  return and(visibleTo(viewerRole), or(enteredRiderIn(edition), isNotNull(entries.riderNumber)));
}

export async function masterlist(
  db: DbOrTx,
  viewerRole: Role,
  q: { page: number; limit: number; search?: string },
  edition?: EditionRead,
) {
  const population = masterlistPopulation(viewerRole, edition);
  const entryOfEdition = entryIn(edition);
  const stats = onlyRow(
    await db
      .select({
        total_participants: count(),
        verified: sql<number>`count(*) filter (where ${entries.status} = 'verified')`.mapWith(Number),
        pending: sql<number>`count(*) filter (where ${entries.status} = 'pending')`.mapWith(Number),
        with_rider_number: sql<number>`count(*) filter (where ${entries.riderNumber} is not null)`.mapWith(Number),
        confirmed_participants:
          sql<number>`count(*) filter (where ${entries.status} = 'verified' and ${entries.riderNumber} is not null)`.mapWith(
            Number,
          ),
      })
      .from(users)
      .leftJoin(entries, entryOfEdition)
      .where(population),
  );

  const where = and(population, isNotNull(entries.riderNumber), userSearch(q.search, true));
  const { rows, pagination } = await pageOf(
    (limit, offset) =>
      db
        .select({ ...adminUserColumns, total: totalRows })
        .from(users)
        .leftJoin(entries, entryOfEdition)
        .where(where)
        // Verified first, then by rider number.
        .orderBy(sql`case when ${entries.status} = 'verified' then 0 else 1 end`, asc(entries.riderNumber))
        .limit(limit)
        .offset(offset),
    q,
  );
  return {
    participants: rows.map((r) => presentAdminUser(r as AdminUserRow)),
    stats: { ...stats, total_participants: Number(stats.total_participants) } as MasterlistStats,
    pagination,
  };
}
