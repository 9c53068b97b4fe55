import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import { CURRENT_EDITION, inEdition } from '../../lib/edition-of';
import { ConflictError, isUniqueViolation } from '../../lib/errors';
import { oncePerDb } from '../../lib/per-db';
import { ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { assertNotHeldFromOthers, heldNumbersSql, holderOf } from '../editions/held-numbers';
import { riderNumberTaken } from '../registration/registration.service';

// One row holding the whole list as JSON text, ready to be spliced into the answer: 500
// numbers cost one row to parse instead of 500, and no re-serialising on the way out.
// Numbers held for returning riders (DESIGN.md §9) are listed as taken, and the list says
// when the first hold ends: from then on it is no longer true.
const takenListQuery = oncePerDb((db) =>
  db
    .select({
      json: sql<string>`coalesce(json_agg(distinct taken.n order by taken.n), '[]'::json)::text`,
      heldUntil: sql<string | Date | null>`min(taken.until)`,
    })
    .from(
      sql`(select ${entries.riderNumber} as n, null::timestamptz as until from ${entries}
             where ${entries.editionId} = ${CURRENT_EDITION} and ${isNotNull(entries.riderNumber)}
           union select held.n, held.until from (${heldNumbersSql(sql`${sql.placeholder('now')}`)}) held) taken`,
    )
    .prepare('taken_rider_numbers'),
);

/**
 * The taken rider numbers (held ones included), ascending, as a JSON array text, and the
 * moment the first of the held ones is released (null when none is held).
 */
export async function takenNumbersJson(db: Db, now: Date): Promise<{ json: string; heldUntil: Date | null }> {
  const [row] = await takenListQuery(db).execute({ now: now.toISOString() });
  return { json: row?.json ?? '[]', heldUntil: row?.heldUntil ? new Date(row.heldUntil) : null };
}

/** Free for `userId` (or for anyone): nobody has it and it is not held for someone else. */
export async function isAvailable(db: Db, n: number, now: Date, userId: string | null = null): Promise<boolean> {
  const [row] = await db
    .select({ id: entries.id })
    .from(entries)
    .where(and(eq(entries.riderNumber, n), inEdition(entries.editionId)))
    .limit(1);
  if (row) return false;
  const held = await holderOf(db, n, now);
  return !held || held.userId === userId;
}

export async function myNumber(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({ n: entries.riderNumber })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.n ?? null;
}

/**
 * Claims a number for the signed-in rider (or moves them to another one). Once a rider
 * is verified the number is printed on their kit, so it can no longer change here.
 */
export async function assignNumber(db: Db, userId: string, n: number, now: Date): Promise<number> {
  const [row] = await db
    .select({
      riderNumber: entries.riderNumber,
      firstName: users.firstName,
      lastName: users.lastName,
      status: entries.status,
      entryId: entries.id,
    })
    .from(users)
    // The number is locked by this edition's verification, not by a past one.
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new ConflictError('User not found');
  // The number is the entry's: an account with no entry in this edition has none to claim it for.
  if (!row.entryId) throw new ConflictError('You have not entered this edition yet', 'NOT_ENTERED');
  const entryId = row.entryId;
  if (row.riderNumber === n) return n;
  await assertNotHeldFromOthers(db, n, userId, now);
  if (row.status === 'verified' && row.riderNumber !== null) {
    throw new ConflictError(
      'Your rider number is locked after verification. Please ask the organizers to change it.',
      'RIDER_NUMBER_LOCKED',
    );
  }
  try {
    await db.transaction(async (tx) => {
      const now = new Date();
      await tx.update(entries).set({ riderNumber: n, updatedAt: now }).where(eq(entries.id, entryId));
      await tx.update(users).set({ updatedAt: now }).where(eq(users.id, userId));
      await recordActivity(tx, {
        type: 'rider_number_assigned',
        userId,
        userName: displayName(row),
        description: `${displayName(row)} claimed rider #${n}`,
        details: row.riderNumber ? `Previously #${row.riderNumber}` : null,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err, 'entries_rider_number_uq')) throw riderNumberTaken(n);
    throw err;
  }
  return n;
}
