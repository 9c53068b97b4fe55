// Entries (DESIGN.md §9): a person in one edition. An install keeps entries for its current
// edition only, on the account (number, category) and its verification record, until
// another edition is made current (docs/editions.md). A module of its own: it reads the
// current edition (editions) and a rider's course state (course), which sits above editions.
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import type { MyEntry } from '@rally/shared/contracts/editions';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import { NotFoundError } from '../../lib/errors';
import { riderCourseState } from '../course/course-decisions.service';
import { currentEdition } from '../editions/editions.service';

/**
 * The rider's entries, newest first. An install keeps entries for its current edition only
 * (the account's number, category and verification) until another edition is made current
 * (docs/editions.md), so this is that one entry, or none.
 */
export async function myEntries(db: DbOrTx, userId: string, now: Date): Promise<MyEntry[]> {
  const edition = await currentEdition(db);
  const [row] = await db
    .select({
      id: verifications.id,
      status: verifications.status,
      verificationCode: verifications.verificationCode,
      riderNumber: users.riderNumber,
      category: users.category,
      active: sql<boolean>`${users.status} = 'active'`,
    })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.userId))
    // Staff accounts carry a verification record too, but enter no edition.
    .where(and(eq(verifications.userId, userId), inArray(users.role, [...RIDER_ROLES])))
    .limit(1);
  if (!row) return [];
  // A verified, active rider has a course state; any other entry has no result yet.
  const state =
    row.status === 'verified' && row.active
      ? await riderCourseState(db, userId, now).catch((err) => {
          if (err instanceof NotFoundError) return null;
          throw err;
        })
      : null;
  return [
    {
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
    },
  ];
}
