// The roster a scanner keeps offline: verified, active riders with a rider code.
//
// Deltas: the cursor is an opaque "r1.<epoch ms>" taken when a roster read starts, minus a
// minute. A later read with it returns the riders whose user, verification or photo
// changed after that instant, so a write whose transaction committed a little after the
// read began is still picked up (sending a rider twice is harmless; missing one is not).
// Riders who left the roster go into `removed`: accounts that changed and are no longer
// eligible (deactivated, unverified, role changed, code cleared), and deleted accounts,
// found through the `user_deleted` entries of the activity log, which keep the deleted id
// (the row itself is gone, so nothing else remembers it).
import { routeForCategory } from '@rally/shared/catalog/event-day';
import { isStorableInstant } from '@rally/shared/contracts/common';
import { and, eq, gt, isNotNull, not, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import type { EditionRead } from '../../lib/edition-of';
import { BadRequestError } from '../../lib/errors';
import { entryIn, isVerifiedRider } from '../../lib/riders';

const OVERLAP_MS = 60_000;

/** The profile photo's small URL, versioned by the upload so a cached copy is replaced when it changes. */
export function photoColumn(userId: PgColumn) {
  return sql<
    string | null
  >`(select '/api/public/profile-image/' || ${files.userId} || '?size=thumb&v=' || floor(extract(epoch from ${files.createdAt}))::bigint from ${files} where ${files.userId} = ${userId} and ${files.kind} = 'profile_image')`;
}

const photoChangedAt = sql`(select ${files.createdAt} from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'profile_image')`;

const eligible = and(isVerifiedRider, eq(users.status, 'active'), isNotNull(entries.riderCode)) as SQL;

export function parseCursor(since: string | undefined): Date | null {
  if (since === undefined || since === '') return null;
  const m = /^r1\.(\d{1,15})$/.exec(since);
  // A cursor is a moment this server took; one beyond the years the database keeps
  // (`r1.999999999999999`) was never issued, and would fail the query rather than be refused.
  if (!m?.[1] || !isStorableInstant(Number(m[1])))
    throw new BadRequestError('since is not a valid cursor', 'BAD_CURSOR');
  return new Date(Number(m[1]));
}

/** `edition`'s roster (default: the current one's, the one scanners work from; a past one is staff reading history). */
export async function scanRoster(db: Db, since: string | undefined, now: Date = new Date(), edition?: EditionRead) {
  const after = parseCursor(since);
  const entryOf = entryIn(edition);
  const cursor = `r1.${now.getTime() - OVERLAP_MS}`;
  const changed = after
    ? or(gt(users.updatedAt, after), gt(entries.updatedAt, after), sql`${photoChangedAt} > ${after}`)
    : undefined;
  const rows = await db
    .select({
      id: users.id,
      riderCode: entries.riderCode,
      riderNumber: entries.riderNumber,
      firstName: users.firstName,
      lastName: users.lastName,
      kitName: users.kitName,
      category: entries.category,
      status: entries.status,
      photoUrl: photoColumn(users.id),
    })
    .from(users)
    .innerJoin(entries, entryOf)
    .where(and(eligible, changed))
    .orderBy(entries.riderNumber, users.id);
  let removed: string[] = [];
  if (after) {
    const [left, deleted] = await Promise.all([
      db
        .select({ id: users.id })
        .from(users)
        .leftJoin(entries, entryOf)
        .where(
          and(or(gt(users.updatedAt, after), gt(entries.updatedAt, after)), not(sql`coalesce(${eligible}, false)`)),
        ),
      db
        .select({ id: sql<string | null>`${activities.metadata} ->> 'deletedUserId'` })
        .from(activities)
        .where(and(eq(activities.type, 'user_deleted'), gt(activities.createdAt, after))),
    ]);
    removed = [...new Set([...left.map((r) => r.id), ...deleted.flatMap((r) => (r.id ? [r.id] : []))])];
  }
  return {
    riders: rows.map((r) => ({
      ...r,
      status: r.status as string,
      route: routeForCategory(r.category),
    })),
    removed,
    cursor,
  };
}
