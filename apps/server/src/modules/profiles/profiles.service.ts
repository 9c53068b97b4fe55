// Public profiles, fire and support comments. Unknown, malformed and inactive ids are all
// "User not found": a deactivated rider disappears from the public side entirely.
import {
  DOUBLE_FIRE_MESSAGE,
  publicProfileResponse,
  SELF_COMMENT_MESSAGE,
  SELF_FIRE_MESSAGE,
  USER_NOT_FOUND_MESSAGE,
} from '@rally/shared/contracts/profiles';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { comments, fires } from '../../db/schema/social';
import { users } from '../../db/schema/users';
import type { AnswerCache } from '../../lib/answer-cache';
import type { AuthContext } from '../../lib/authorize';
import { CURRENT_EDITION } from '../../lib/edition-of';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors';
import { oncePerDb } from '../../lib/per-db';
import { isRider, ownEntry } from '../../lib/riders';
import { displayName, onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { passageOf } from '../course/passages';
import { consentInEffectSql } from '../privacy/consents.service';
import {
  type CommentRow,
  type MyCommentRow,
  type PastEditionJson,
  presentComment,
  presentMyComment,
  presentPublicProfile,
} from './profiles.presenter';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const userNotFound = () => new NotFoundError(USER_NOT_FOUND_MESSAGE, 'USER_NOT_FOUND');

/** Whether a driver error is a foreign-key violation (the target vanished mid-request). */
function isForeignKeyViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    const x = e as { code?: string; cause?: unknown };
    if (x.code === '23503') return true;
    e = x.cause;
  }
  return false;
}

/**
 * The active user behind an id, or "User not found": also a rider who withdrew their public
 * profile (DESIGN.md §12), to everyone but `viewerId` being that rider.
 */
async function activeUser(db: DbOrTx, id: string, viewerId: string | null = null) {
  if (!UUID.test(id)) throw userNotFound();
  const [row] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      kitName: users.kitName,
      shown: consentInEffectSql(users.id, 'public_profile'),
    })
    .from(users)
    .where(and(eq(users.id, id), eq(users.status, 'active')))
    .limit(1);
  if (!row || (!row.shown && viewerId?.toLowerCase() !== row.id)) throw userNotFound();
  return row;
}

const publicProfileQuery = oncePerDb((db) =>
  db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      kitName: users.kitName,
      role: users.role,
      riderNumber: entries.riderNumber,
      category: entries.category,
      gender: users.gender,
      motorcycleModel: users.motorcycleModel,
      verificationStatus: entries.status,
      createdAt: users.createdAt,
      hasProfileImage: sql<boolean>`exists(select 1 from ${files} where ${files.userId} = ${users.id} and ${files.kind} = 'profile_image')`,
      fires: sql<number>`(select count(*)::int from ${fires} where ${fires.receiverId} = ${users.id})`,
      comments: sql<number>`(select count(*)::int from ${comments} where ${comments.targetUserId} = ${users.id})`,
      // The last station passed (an accepted or review-accepted scan), for followers on event day.
      // The current edition's passages: last year's are no news to followers.
      lastStationName: sql<string | null>`(select st.name from scans s
        join stations st on st.id = s.station_id and st.edition_id = s.edition_id
        where s.rider_id = users.id and s.edition_id = ${CURRENT_EDITION} and ${passageOf('s')}
        order by s.scanned_at desc, st.day desc, st."order" desc limit 1)`,
      lastStationAt: sql<Date | string | null>`(select s.scanned_at from scans s
        where s.rider_id = users.id and s.edition_id = ${CURRENT_EDITION} and ${passageOf('s')}
        order by s.scanned_at desc limit 1)`,
      // The course module marks a finisher with one rally_completion entry (a finish with
      // every required station passed); the console's demo samples are no such mark.
      // The current edition's only: a past edition's completions carry its id (metadata.edition).
      finisher: sql<boolean>`exists(select 1 from activities a where a.user_id = users.id
        and a.type = 'rally_completion' and coalesce(a.metadata->>'sample', '') <> 'true'
        and a.metadata->>'edition' is null)`,
      // The editions the rider's entry was verified in, before the current one (DESIGN.md §9):
      // the entries of closed editions. A staff account's own record there is none (`isRiderEntry`).
      // The rider's consents (DESIGN.md §12): withdrawn, the profile is no one's but theirs.
      publicProfile: consentInEffectSql(users.id, 'public_profile'),
      publicPhoto: consentInEffectSql(users.id, 'public_photo'),
      pastEditions: sql<PastEditionJson[]>`(select coalesce(json_agg(json_build_object(
          'editionId', e.id, 'name', e.name, 'year', e.year, 'category', pe.category,
          'riderNumber', pe.rider_number, 'state', pe.result_state, 'elapsedMs', pe.elapsed_ms)
          order by e.year desc, e.created_at desc), '[]'::json)
        from ${entries} pe join ${editions} e on e.id = pe.edition_id
        where pe.user_id = users.id and e.closed_at is not null and (pe.rider_number is not null or ${isRider})
          and pe.status = 'verified')`,
    })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(and(eq(users.id, sql.placeholder('id')), eq(users.status, 'active')))
    .limit(1)
    .prepare('public_profile'),
);

/**
 * A user id as stored (lower-case), for anything keyed on it: the database compares UUIDs
 * whatever their case, so `ABC…` and `abc…` are one rider and must be one cache entry.
 * Null for anything that is not a UUID (it names no one).
 */
export function canonicalUserId(id: string): string | null {
  return UUID.test(id) ? id.toLowerCase() : null;
}

/**
 * The public profile of an active user, by an id canonicalUserId has already checked, as
 * others see it or (`owner`) as the rider sees their own: withdrawn consents hide the
 * profile ("User not found") and the photo from others only.
 */
async function getPublicProfile(db: Db, id: string, owner: boolean) {
  const [row] = await publicProfileQuery(db).execute({ id });
  if (!row || (!owner && !row.publicProfile)) throw userNotFound();
  const profile = presentPublicProfile(row);
  return owner || row.publicPhoto ? profile : { ...profile, hasProfileImage: false };
}

/**
 * The answer of GET /api/users/{id}/profile, serialised, from the answer cache: the API route
 * and the server-rendered page (profile-page.routes.ts) share it, so a shared profile link
 * opened by a crowd costs one query whichever of the two they ask.
 */
export function publicProfileAnswer(
  cache: AnswerCache,
  db: Db,
  rawId: string,
  viewerId: string | null = null,
): Promise<string> {
  const id = canonicalUserId(rawId);
  if (id === null) return Promise.reject(userNotFound());
  const owner = viewerId?.toLowerCase() === id;
  return cache.get(`${owner ? 'own-profile' : 'profile'}:${id}`, async () =>
    JSON.stringify(publicProfileResponse.parse({ success: true, data: await getPublicProfile(db, id, owner) })),
  );
}

async function totalFires(db: DbOrTx, receiverId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(fires).where(eq(fires.receiverId, receiverId));
  return Number(row?.n ?? 0);
}

export async function fireStatus(db: Db, targetId: string, viewerId: string | null) {
  await activeUser(db, targetId, viewerId);
  let hasGivenFire = false;
  if (viewerId) {
    const [given] = await db
      .select({ giverId: fires.giverId })
      .from(fires)
      .where(and(eq(fires.giverId, viewerId), eq(fires.receiverId, targetId)))
      .limit(1);
    hasGivenFire = !!given;
  }
  return { hasGivenFire, totalFires: await totalFires(db, targetId) };
}

/** One fire per giver and receiver; the total comes back counted by the database. */
export async function giveFire(db: Db, giver: AuthContext, targetId: string) {
  if (targetId === giver.userId) throw new BadRequestError(SELF_FIRE_MESSAGE, 'SELF_FIRE');
  try {
    return await db.transaction(async (tx) => {
      const target = await activeUser(tx, targetId);
      const inserted = await tx
        .insert(fires)
        .values({ giverId: giver.userId, receiverId: target.id })
        .onConflictDoNothing()
        .returning({ giverId: fires.giverId });
      if (inserted.length === 0) throw new ConflictError(DOUBLE_FIRE_MESSAGE, 'FIRE_ALREADY_GIVEN');
      const total = await totalFires(tx, target.id);
      await recordActivity(tx, {
        type: 'fire_earned',
        userId: target.id,
        userName: displayName(target),
        actorId: giver.userId,
        actorName: displayName(giver),
        description: `${displayName(giver)} gave fire to ${displayName(target)}`,
        metadata: { totalFires: total },
      });
      return { hasGivenFire: true, totalFires: total };
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw userNotFound();
    throw err;
  }
}

const author = alias(users, 'author');
const target = alias(users, 'target');

const commentColumns = {
  id: comments.id,
  text: comments.text,
  createdAt: comments.createdAt,
  authorId: author.id,
  authorKitName: author.kitName,
  authorFirstName: author.firstName,
  authorLastName: author.lastName,
  authorRole: author.role,
};

export interface Page {
  limit: number;
  offset: number;
}

/** Comments on a profile, newest first (id breaks ties so pages never overlap). */
export async function listComments(db: Db, targetId: string, page: Page, viewerId: string | null = null) {
  await activeUser(db, targetId, viewerId);
  const [rows, counted] = await Promise.all([
    db
      .select(commentColumns)
      .from(comments)
      .innerJoin(author, eq(author.id, comments.authorId))
      .where(eq(comments.targetUserId, targetId))
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(comments).where(eq(comments.targetUserId, targetId)),
  ]);
  return {
    comments: (rows as CommentRow[]).map(presentComment),
    total: Number(onlyRow(counted).n),
    limit: page.limit,
    offset: page.offset,
  };
}

export async function addComment(db: Db, actor: AuthContext, targetId: string, text: string) {
  if (targetId === actor.userId) throw new ForbiddenError(SELF_COMMENT_MESSAGE, 'SELF_COMMENT');
  try {
    return await db.transaction(async (tx) => {
      const targetUser = await activeUser(tx, targetId);
      const created = onlyRow(
        await tx
          .insert(comments)
          .values({ authorId: actor.userId, targetUserId: targetUser.id, text })
          .returning({ id: comments.id }),
      );
      const [row] = await tx
        .select(commentColumns)
        .from(comments)
        .innerJoin(author, eq(author.id, comments.authorId))
        .where(eq(comments.id, created.id))
        .limit(1);
      await recordActivity(tx, {
        type: 'comment_added',
        userId: targetUser.id,
        userName: displayName(targetUser),
        actorId: actor.userId,
        actorName: displayName(actor),
        description: `${displayName(actor)} left a support comment for ${displayName(targetUser)}`,
        metadata: { commentId: created.id },
      });
      return presentComment(row as CommentRow);
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) throw userNotFound();
    throw err;
  }
}

/** The comments a rider wrote, newest first, with whom they were for. */
export async function listMyComments(db: Db, userId: string, page: Page) {
  const [rows, counted] = await Promise.all([
    db
      .select({
        id: comments.id,
        text: comments.text,
        createdAt: comments.createdAt,
        targetId: target.id,
        targetFirstName: target.firstName,
        targetLastName: target.lastName,
        targetKitName: target.kitName,
        targetRole: target.role,
      })
      .from(comments)
      .innerJoin(target, eq(target.id, comments.targetUserId))
      .where(eq(comments.authorId, userId))
      .orderBy(desc(comments.createdAt), desc(comments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(comments).where(eq(comments.authorId, userId)),
  ]);
  return {
    comments: (rows as MyCommentRow[]).map(presentMyComment),
    total: Number(onlyRow(counted).n),
    limit: page.limit,
    offset: page.offset,
  };
}
