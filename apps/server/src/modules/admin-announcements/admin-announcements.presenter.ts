import type { AdminAnnouncement } from '@rally/shared/contracts/announcements';
import { iso } from '../logs/sql-text';
import type { AnnouncementRow } from './admin-announcements.service';

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
