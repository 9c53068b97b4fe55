// Consent on record (DESIGN.md §12): the notice a rider accepted, and the optional purposes
// they give or withdraw. Rows are only ever added; the newest per purpose is the choice in
// effect, and a rider who never chose has the rally's default (CONSENT_DEFAULTS).
//
// What is in effect for a rider is decided here and nowhere else: `consentInEffectSql` (for
// lists and joins) and `consentInEffect` (one rider) are the same rule.
import { isRiderRole, type Role } from '@rally/shared/catalog/accounts';
import { CONSENT_DEFAULTS, type ConsentPurpose, type ConsentScreen } from '@rally/shared/catalog/privacy';
import { and, Column, eq, getTableName, is, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { consents } from '../../db/schema/privacy';
import { trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import { CURRENT_EDITION } from '../../lib/edition-of';
import { ConflictError } from '../../lib/errors';
import { currentNotice } from './notice.service';

/**
 * SQL: whether `purpose` is in effect for the user `userId` names (a column or a value):
 * their newest choice, else the default. Tracking is what the tracker does: on only while
 * the rider's tracker in the current edition is on (each edition is opted into afresh, and
 * every turn on or off is also a consent row).
 */
export function consentInEffectSql(column: AnyPgColumn | SQL, purpose: ConsentPurpose): SQL<boolean> {
  // A column is named with its table: in a one-table select drizzle writes a bare "id",
  // which inside the subquery would be the consent row's own id.
  const userId = is(column, Column)
    ? sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`
    : column;
  if (purpose === 'tracking')
    return sql<boolean>`exists(select 1 from ${trackers} t
      where t.user_id = ${userId} and t.edition_id = ${CURRENT_EDITION} and t.enabled)`;
  return sql<boolean>`coalesce((select c.given from ${consents} c
      where c.user_id = ${userId} and c.purpose = ${purpose}
      order by c.at desc limit 1), ${sql.raw(CONSENT_DEFAULTS[purpose] ? 'true' : 'false')})`;
}

/** Whether `purpose` is in effect for one user now (consentInEffectSql). */
export async function consentInEffect(db: DbOrTx, userId: string, purpose: ConsentPurpose): Promise<boolean> {
  const [row] = await db
    .select({ given: consentInEffectSql(sql`${userId}::uuid`, purpose) })
    .from(sql`(select 1) as one`);
  return row?.given === true;
}

/** The users who withdrew `purpose` (a purpose given by default): a list leaves them out or unnamed. */
export async function usersWithdrawn(db: DbOrTx, purpose: Exclude<ConsentPurpose, 'tracking'>): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ userId: consents.userId })
    .from(consents)
    .where(and(eq(consents.purpose, purpose), sql`not ${consentInEffectSql(consents.userId, purpose)}`));
  return new Set(rows.map((r) => r.userId));
}

/**
 * Whether a viewer may see what `purpose` covers of `userId`'s public side: always the rider
 * themself (and, when `staffToo`, staff, who see the rider's record anyway), else only while
 * it is in effect.
 */
export async function shownTo(
  db: DbOrTx,
  userId: string,
  purpose: 'public_profile' | 'public_photo',
  viewer: { userId: string; role: Role } | null,
  staffToo = false,
): Promise<boolean> {
  if (viewer && viewer.userId.toLowerCase() === userId.toLowerCase()) return true;
  if (staffToo && viewer && !isRiderRole(viewer.role)) return true;
  return consentInEffect(db, userId, purpose);
}

export interface ConsentInput {
  userId: string;
  purpose: 'notice' | ConsentPurpose;
  given: boolean;
  version: string | null;
  screen: ConsentScreen;
}

/**
 * Appends one consent row, in the caller's transaction. Its time is the clock's at the
 * statement (not the transaction's start), so two rows of one transaction keep their order.
 * Touching the user row announces the change to every server instance (migration 0002's
 * trigger on users), which drops their cached public answers of this rider at once.
 */
export async function recordConsent(tx: DbOrTx, input: ConsentInput): Promise<void> {
  await tx.insert(consents).values({ ...input, at: sql`clock_timestamp()` });
  if (input.purpose !== 'notice')
    await tx
      .update(users)
      .set({ updatedAt: sql`${users.updatedAt}` })
      .where(eq(users.id, input.userId));
}

export const consentRequired = (current: number) =>
  new ConflictError(
    `The privacy notice and terms have changed: read and accept version ${current} (consentVersion ${current}).`,
    'CONSENT_REQUIRED',
  );

/** Refuses (409 CONSENT_REQUIRED, naming the current version) a notice version that is not the current one. */
export async function assertCurrentNotice(db: DbOrTx, version: number): Promise<number> {
  const current = await currentNotice(db);
  if (version !== current.version) throw consentRequired(current.version);
  return current.version;
}

/**
 * Records the rider's acceptance of notice `version` (registration, Join, the sign-in re-ask),
 * in the caller's transaction; a stale version throws, so nothing of the caller commits.
 */
export async function recordNoticeConsent(
  tx: DbOrTx,
  userId: string,
  version: number,
  screen: ConsentScreen,
): Promise<void> {
  await assertCurrentNotice(tx, version);
  await recordConsent(tx, { userId, purpose: 'notice', given: true, version: String(version), screen });
}
