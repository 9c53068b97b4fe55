// Entries (DESIGN.md §9): a person in one edition, one `entries` row each, every edition's
// side by side. A past edition's entry holds its result (rollover.service.ts). A module of
// its own: it reads the editions and a rider's course state (course), which sits above editions.
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import type { MyEntry } from '@rally/shared/contracts/editions';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import { inEdition } from '../../lib/edition-of';
import { NotFoundError } from '../../lib/errors';
import { isRiderEntry } from '../../lib/riders';
import { riderCourseState } from '../course/course-decisions.service';
import { currentEdition } from '../editions/editions.service';

/** The rider's entries, newest first: the current edition's (if any), then the past ones. */
export async function myEntries(db: DbOrTx, userId: string, now: Date): Promise<MyEntry[]> {
  const current = await currentEntry(db, userId, now);
  const past = await pastEntriesOf(db, userId);
  return [
    ...(current ? [current] : []),
    ...past.map(({ entry, edition }) => ({
      id: entry.id,
      editionId: edition.id,
      editionName: edition.name,
      year: edition.year,
      current: false,
      riderNumber: entry.riderNumber,
      category: entry.category,
      verificationCode: entry.verificationCode,
      verificationStatus: entry.status,
      result: entry.resultState
        ? { state: entry.resultState, finishedAt: entry.finishedAt?.toISOString() ?? null, elapsedMs: entry.elapsedMs }
        : null,
    })),
  ];
}

/**
 * The rider's entries in past (closed) editions, newest first, each with its edition. A staff
 * account's own record there (no number, and the account is staff) is no entry.
 */
export function pastEntriesOf(db: DbOrTx, userId: string, limit?: number) {
  const query = db
    .select({ entry: entries, edition: editions })
    .from(entries)
    .innerJoin(editions, eq(editions.id, entries.editionId))
    .innerJoin(users, eq(users.id, entries.userId))
    .where(and(eq(entries.userId, userId), isNotNull(editions.closedAt), isRiderEntry))
    .orderBy(desc(editions.year), desc(editions.createdAt));
  return limit === undefined ? query : query.limit(limit);
}

async function currentEntry(db: DbOrTx, userId: string, now: Date): Promise<MyEntry | null> {
  const edition = await currentEdition(db);
  const [row] = await db
    .select({
      id: entries.id,
      status: entries.status,
      verificationCode: entries.verificationCode,
      riderNumber: entries.riderNumber,
      category: entries.category,
      active: sql<boolean>`${users.status} = 'active'`,
    })
    .from(entries)
    .innerJoin(users, eq(users.id, entries.userId))
    // Staff accounts carry a verification record too, but enter no edition.
    .where(and(eq(entries.userId, userId), inEdition(entries.editionId), inArray(users.role, [...RIDER_ROLES])))
    .limit(1);
  if (!row) return null;
  // A verified, active rider has a course state; any other entry has no result yet.
  const state =
    row.status === 'verified' && row.active
      ? await riderCourseState(db, userId, now).catch((err) => {
          if (err instanceof NotFoundError) return null;
          throw err;
        })
      : null;
  return {
    id: row.id,
    editionId: edition.id,
    editionName: edition.name,
    year: edition.year,
    current: edition.current,
    riderNumber: row.riderNumber,
    category: row.category,
    verificationCode: row.verificationCode,
    verificationStatus: row.status,
    result: state
      ? { state: state.state, finishedAt: state.finishedAt?.toISOString() ?? null, elapsedMs: state.elapsedMs }
      : null,
  };
}
