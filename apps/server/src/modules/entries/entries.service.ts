// Entries (DESIGN.md §9): a person in one edition. The current edition's entries live on the
// account (number, category, sizes) and its verification record; a past edition's are in
// `edition_entries` (rollover.service.ts). A module of its own: it reads the editions and a
// rider's course state (course), which sits above editions.
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import type { MyEntry } from '@rally/shared/contracts/editions';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { editionEntries, editions } from '../../db/schema/editions';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import { inEdition } from '../../lib/edition-of';
import { NotFoundError } from '../../lib/errors';
import { riderCourseState } from '../course/course-decisions.service';
import { currentEdition } from '../editions/editions.service';

/** The rider's entries, newest first: the current edition's (if any), then the past ones. */
export async function myEntries(db: DbOrTx, userId: string, now: Date): Promise<MyEntry[]> {
  const current = await currentEntry(db, userId, now);
  const past = await pastEntriesOf(db, userId);
  return [
    ...(current ? [current] : []),
    ...past.map(({ entry, edition }) => ({
      id: entry.entryId,
      editionId: edition.id,
      editionName: edition.name,
      year: edition.year,
      current: false,
      riderNumber: entry.riderNumber,
      category: entry.category,
      verificationCode: entry.verificationCode,
      verificationStatus: entry.verificationStatus as MyEntry['verificationStatus'],
      result: entry.resultState
        ? { state: entry.resultState, finishedAt: entry.finishedAt?.toISOString() ?? null, elapsedMs: entry.elapsedMs }
        : null,
    })),
  ];
}

/** The rider's entries in past editions, newest first, each with its edition. */
export function pastEntriesOf(db: DbOrTx, userId: string, limit?: number) {
  const query = db
    .select({ entry: editionEntries, edition: editions })
    .from(editionEntries)
    .innerJoin(editions, eq(editions.id, editionEntries.editionId))
    .where(eq(editionEntries.userId, userId))
    .orderBy(desc(editions.year), desc(editions.createdAt));
  return limit === undefined ? query : query.limit(limit);
}

async function currentEntry(db: DbOrTx, userId: string, now: Date): Promise<MyEntry | null> {
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
    .where(
      and(eq(verifications.userId, userId), inEdition(verifications.editionId), inArray(users.role, [...RIDER_ROLES])),
    )
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
