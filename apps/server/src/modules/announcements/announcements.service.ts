// The rider-facing read of announcements; staff manage them in admin-announcements.
import { ANNOUNCEMENTS_MAX, type Announcement } from '@rally/shared/contracts/rider-kit';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { announcements } from '../../db/schema/announcements';
import { users } from '../../db/schema/users';
import { presentAnnouncement } from './announcements.presenter';

/** Active announcements, newest first. Inactive ones are drafts or withdrawn: riders never see them. */
export async function activeAnnouncements(db: Db): Promise<Announcement[]> {
  const rows = await db
    .select({
      id: announcements.id,
      title: announcements.title,
      content: announcements.content,
      createdAt: announcements.createdAt,
      authorId: announcements.authorId,
      firstName: users.firstName,
      lastName: users.lastName,
      authorRole: users.role,
    })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.authorId))
    .where(eq(announcements.isActive, true))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ANNOUNCEMENTS_MAX);
  return rows.map(presentAnnouncement);
}
