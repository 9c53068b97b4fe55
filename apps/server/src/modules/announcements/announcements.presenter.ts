import type { Role } from '@rally/shared/catalog';
import type { Announcement } from '@rally/shared/contracts/rider-kit';

export interface AnnouncementRow {
  id: string;
  title: string;
  content: string;
  createdAt: Date;
  authorId: string | null;
  firstName: string | null;
  lastName: string | null;
  authorRole: Role | null;
}

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
    // Announcements carry no priority of their own; the spec fixes it at normal.
    priority: 'normal',
  };
}
