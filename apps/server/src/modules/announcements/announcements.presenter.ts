import type { AdminAnnouncement } from '@rally/shared/contracts/announcements';
import type { Announcement } from '@rally/shared/contracts/rider-kit';
import { iso } from '../../lib/sql-text';
import type { AnnouncementRow } from './announcements.service';

export function presentAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    created_at: row.createdAt.toISOString(),
    author_id: row.authorId,
    first_name: row.firstName,
    last_name: row.lastName,
    author_role: row.authorRole,
    // Announcements carry no priority of their own; every one goes out as normal.
    priority: 'normal',
  };
}

export function presentAdminAnnouncement(row: AnnouncementRow): AdminAnnouncement {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    is_active: row.isActive,
    author_id: row.authorId,
    first_name: row.firstName,
    last_name: row.lastName,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
