import type { AnnouncementBody } from '@rally/shared/contracts/announcements';
import { ANNOUNCEMENTS_MAX } from '@rally/shared/contracts/rider-kit';
import { desc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { announcements } from '../../db/schema/announcements';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';

// Announcements: riders read the active ones, staff write them. Every write records an
// 'announcement' activity in the same transaction.

const NOT_FOUND = 'Announcement not found';

const columns = {
  id: announcements.id,
  title: announcements.title,
  content: announcements.content,
  isActive: announcements.isActive,
  authorId: announcements.authorId,
  firstName: users.firstName,
  lastName: users.lastName,
  authorRole: users.role,
  createdAt: announcements.createdAt,
  updatedAt: announcements.updatedAt,
};

function withAuthor(db: DbOrTx) {
  return db.select(columns).from(announcements).leftJoin(users, eq(users.id, announcements.authorId));
}

export type AnnouncementRow = Awaited<ReturnType<ReturnType<typeof withAuthor>['execute']>>[number];

/** Active announcements, newest first. Inactive ones are drafts or withdrawn: riders never see them. */
export function activeAnnouncements(db: Db): Promise<AnnouncementRow[]> {
  return withAuthor(db)
    .where(eq(announcements.isActive, true))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENTS_MAX);
}

export async function listAnnouncements(db: Db, page: number, limit: number) {
  return pageOf(
    (limit, offset) =>
      db
        .select({ ...columns, total: totalRows })
        .from(announcements)
        .leftJoin(users, eq(users.id, announcements.authorId))
        .orderBy(desc(announcements.createdAt), desc(announcements.id))
        .limit(limit)
        .offset(offset),
    { page, limit },
  );
}

async function byId(db: DbOrTx, id: string): Promise<AnnouncementRow> {
  const [row] = await withAuthor(db).where(eq(announcements.id, id)).limit(1);
  if (!row) throw new NotFoundError(NOT_FOUND, 'ANNOUNCEMENT_NOT_FOUND');
  return row;
}

const visibility = (active: boolean) => (active ? 'active' : 'inactive');

/** The 'announcement' entry of a write: the staff member who made it is both its actor and its subject. */
function recordAnnouncementActivity(
  tx: DbOrTx,
  actor: Actor,
  announcementId: string,
  action: 'created' | 'updated' | 'deleted',
  text: { description: string; details: string },
) {
  return recordActivity(tx, {
    type: 'announcement',
    actorId: actor.id,
    actorName: actor.name,
    userId: actor.id,
    userName: actor.name,
    description: text.description,
    details: text.details,
    metadata: { announcementId, action },
  });
}

export async function createAnnouncement(db: Db, body: AnnouncementBody, actor: Actor, now: Date = new Date()) {
  return db.transaction(async (tx) => {
    const isActive = body.is_active ?? true;
    const created = onlyRow(
      await tx
        .insert(announcements)
        .values({
          title: body.title,
          content: body.content,
          isActive,
          authorId: actor.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: announcements.id }),
    );
    await recordAnnouncementActivity(tx, actor, created.id, 'created', {
      description: `Announcement published: ${body.title}`,
      details: `Created ${visibility(isActive)} by ${actor.name}`,
    });
    return byId(tx, created.id);
  });
}

/** Replaces title and content; the active flag changes only when sent. */
export async function updateAnnouncement(
  db: Db,
  id: string,
  body: AnnouncementBody,
  actor: Actor,
  now: Date = new Date(),
) {
  return db.transaction(async (tx) => {
    const before = await byId(tx, id);
    const isActive = body.is_active ?? before.isActive;
    await tx
      .update(announcements)
      .set({ title: body.title, content: body.content, isActive, updatedAt: now })
      .where(eq(announcements.id, id));
    const flag = isActive === before.isActive ? '' : `; now ${visibility(isActive)}`;
    await recordAnnouncementActivity(tx, actor, id, 'updated', {
      description: `Announcement updated: ${body.title}`,
      details: `Edited by ${actor.name}${flag}`,
    });
    return byId(tx, id);
  });
}

export async function deleteAnnouncement(db: Db, id: string, actor: Actor) {
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(announcements)
      .where(eq(announcements.id, id))
      .returning({ title: announcements.title });
    if (!gone) throw new NotFoundError(NOT_FOUND, 'ANNOUNCEMENT_NOT_FOUND');
    await recordAnnouncementActivity(tx, actor, id, 'deleted', {
      description: `Announcement deleted: ${gone.title}`,
      details: `Deleted by ${actor.name}`,
    });
  });
}
