// Staff announcement contracts: the list, create and edit. The same title and content rules serve the console's form.
import { z } from 'zod';
import { ANNOUNCEMENT_TITLE_MAX } from '../catalog/console';
import { envelope, intParam, pagination } from './common';

export const ANNOUNCEMENT_CONTENT_MAX = 10_000;

/** The first problem of an announcement form, or null; the server's 400 messages match. */
export function announcementProblem(input: { title?: string | null; content?: string | null }): string | null {
  const title = (input.title ?? '').trim();
  const content = (input.content ?? '').trim();
  if (title === '') return 'Title is required';
  if (title.length > ANNOUNCEMENT_TITLE_MAX) return `Title must be at most ${ANNOUNCEMENT_TITLE_MAX} characters`;
  if (content === '') return 'Content is required';
  if (content.length > ANNOUNCEMENT_CONTENT_MAX)
    return `Content must be at most ${ANNOUNCEMENT_CONTENT_MAX} characters`;
  return null;
}

export const announcementBody = z.object({
  title: z
    .string({ message: 'Title is required' })
    .trim()
    .min(1, { message: 'Title is required' })
    .max(ANNOUNCEMENT_TITLE_MAX, { message: `Title must be at most ${ANNOUNCEMENT_TITLE_MAX} characters` }),
  content: z
    .string({ message: 'Content is required' })
    .trim()
    .min(1, { message: 'Content is required' })
    .max(ANNOUNCEMENT_CONTENT_MAX, { message: `Content must be at most ${ANNOUNCEMENT_CONTENT_MAX} characters` }),
  is_active: z.boolean({ message: 'is_active must be true or false' }).optional(),
});
export type AnnouncementBody = z.infer<typeof announcementBody>;

export const announcementListQuery = z.object({
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 200, default: 100 }),
});

export const adminAnnouncement = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  is_active: z.boolean(),
  author_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminAnnouncement = z.infer<typeof adminAnnouncement>;

export const adminAnnouncementListResponse = envelope(
  z.object({ announcements: z.array(adminAnnouncement), pagination }),
);
export type AdminAnnouncementListResponse = z.infer<typeof adminAnnouncementListResponse>;
export const adminAnnouncementResponse = envelope(adminAnnouncement);
