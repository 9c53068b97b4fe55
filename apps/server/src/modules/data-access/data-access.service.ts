// Who looked (DESIGN.md §12): writing one line per rider for every staff answer that carried
// their sensitive fields, and reading the lines back for the rider, for staff with
// view_logs, and as the breach kit (who could have been affected, and which fields).

import { STAFF_ROLES } from '@rally/shared/catalog/accounts';
import type { SensitiveKind } from '@rally/shared/catalog/privacy';
import type { AffectedQuery, DataAccessPeopleQuery, DataAccessQuery } from '@rally/shared/contracts/data-access';
import { and, asc, count, desc, eq, gte, inArray, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client';
import { dataAccess } from '../../db/schema/data-access';
import { users } from '../../db/schema/users';
import { containsPattern } from '../../lib/sql-text';
import { visibleAccounts } from '../../lib/visibility';
import type { SensitiveReads } from './sensitive-reads';

export interface AccessReader {
  staffId: string;
  staffName: string;
  ip: string | null;
}

/**
 * One line per rider read. Only ids that are accounts are written: an answer's object
 * carrying a coordinate may be a station's, whose id names no rider. `reason` is the staff
 * member's own words, when they were asked (an export with sensitive columns).
 */
export async function recordAccess(
  db: DbOrTx,
  reader: AccessReader,
  source: string,
  reads: SensitiveReads,
  reason: string | null = null,
) {
  if (reads.byRider.size === 0) return 0;
  const ids = [...reads.byRider.keys()].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (ids.length === 0) return 0;
  const known = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  if (known.length === 0) return 0;
  await db.insert(dataAccess).values(
    known.map(({ id }) => ({
      staffId: reader.staffId,
      staffName: reader.staffName,
      riderId: id,
      fields: [...(reads.byRider.get(id) ?? [])].sort(),
      source,
      ip: reader.ip,
      reason,
    })),
  );
  return known.length;
}

const rider = alias(users, 'rider');
const staff = alias(users, 'staff');

const entryColumns = {
  id: dataAccess.id,
  at: dataAccess.at,
  staffId: dataAccess.staffId,
  staffName: dataAccess.staffName,
  riderId: dataAccess.riderId,
  riderFirstName: rider.firstName,
  riderLastName: rider.lastName,
  fields: dataAccess.fields,
  source: dataAccess.source,
  reason: dataAccess.reason,
};

/** The rider's own lines, newest first (at most the last 500). */
export function myDataAccess(db: Db, userId: string) {
  return db
    .select(entryColumns)
    .from(dataAccess)
    .innerJoin(rider, eq(rider.id, dataAccess.riderId))
    .where(eq(dataAccess.riderId, userId))
    .orderBy(desc(dataAccess.at), desc(dataAccess.id))
    .limit(500);
}

export type DataAccessRow = Awaited<ReturnType<typeof myDataAccess>>[number];

function windowOf(q: { from?: string; to?: string }): SQL[] {
  return [
    q.from ? gte(dataAccess.at, new Date(q.from)) : undefined,
    q.to ? lte(dataAccess.at, new Date(q.to)) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** Who reads the log: their role (the visibility rule) and their id (their own reads stay visible to them). */
export interface LogViewer {
  role: string;
  userId: string;
}

/**
 * Staff reads: what the viewer may see (the visibility rule on both the rider and the staff
 * member); an admin, to whom admins are hidden, still sees their own reads.
 */
function visibleLines(viewer: LogViewer) {
  return and(
    visibleAccounts(viewer.role, rider.role),
    visibleAccounts(viewer.role, staff.role, {
      orphans: true,
      self: { id: dataAccess.staffId, viewerId: viewer.userId },
    }),
  );
}

/** A page of lines, by rider and/or staff member and window, newest first. */
export async function listDataAccess(db: Db, viewer: LogViewer, q: DataAccessQuery) {
  const where = and(
    visibleLines(viewer),
    q.userId ? eq(dataAccess.riderId, q.userId) : undefined,
    q.staffId ? eq(dataAccess.staffId, q.staffId) : undefined,
    ...windowOf(q),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(entryColumns)
      .from(dataAccess)
      .innerJoin(rider, eq(rider.id, dataAccess.riderId))
      .leftJoin(staff, eq(staff.id, dataAccess.staffId))
      .where(where)
      .orderBy(desc(dataAccess.at), desc(dataAccess.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db
      .select({ n: count() })
      .from(dataAccess)
      .innerJoin(rider, eq(rider.id, dataAccess.riderId))
      .leftJoin(staff, eq(staff.id, dataAccess.staffId))
      .where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/**
 * The breach kit: every rider read in the window (by the staff account, or from the address,
 * when named), with every kind read, how many times, and when first and last; with the
 * email and phone the notice goes to.
 */
export function affectedRiders(db: Db, viewer: LogViewer, q: AffectedQuery) {
  return db
    .select({
      riderId: dataAccess.riderId,
      firstName: rider.firstName,
      lastName: rider.lastName,
      email: rider.email,
      phoneNumber: rider.phoneNumber,
      // Every kind read across the lines, deduplicated by the caller (arrays of different
      // lengths cannot be aggregated as arrays).
      fields: sql<string>`string_agg(array_to_string(${dataAccess.fields}, ','), ',')`.mapWith(
        (v: string | null) => [...new Set((v ?? '').split(',').filter(Boolean))].sort() as SensitiveKind[],
      ),
      reads: sql<number>`count(*)`.mapWith(Number),
      firstAt: sql<Date>`min(${dataAccess.at})`.mapWith((v: string | Date) => new Date(v)),
      lastAt: sql<Date>`max(${dataAccess.at})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(dataAccess)
    .innerJoin(rider, eq(rider.id, dataAccess.riderId))
    .leftJoin(staff, eq(staff.id, dataAccess.staffId))
    .where(
      and(
        visibleLines(viewer),
        q.staffId ? eq(dataAccess.staffId, q.staffId) : undefined,
        q.ip ? eq(dataAccess.ip, q.ip) : undefined,
        ...windowOf(q),
      ),
    )
    .groupBy(dataAccess.riderId, rider.firstName, rider.lastName, rider.email, rider.phoneNumber)
    .orderBy(rider.lastName, rider.firstName, dataAccess.riderId);
}

export type AffectedRow = Awaited<ReturnType<typeof affectedRiders>>[number];

/**
 * Riders or staff members to pick for the log, by name or email (the visibility rule
 * applies). Only names, emails and roles: the lookup itself reads nothing sensitive.
 */
export function findPeople(db: Db, viewer: LogViewer, q: DataAccessPeopleQuery) {
  const p = q.search ? containsPattern(q.search) : null;
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
    })
    .from(users)
    .where(
      and(
        visibleAccounts(viewer.role, users.role, { self: { id: users.id, viewerId: viewer.userId } }),
        q.who === 'staff' ? inArray(users.role, [...STAFF_ROLES]) : notInArray(users.role, [...STAFF_ROLES]),
        p
          ? or(
              sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
              sql`${users.email} ilike ${p}`,
              sql`${users.kitName} ilike ${p}`,
            )
          : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.lastName})`), asc(users.id))
    .limit(q.limit);
}

export type PersonRow = Awaited<ReturnType<typeof findPeople>>[number];
