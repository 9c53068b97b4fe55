// Calls of Announcements Management.
import type { AdminAnnouncement, AdminAnnouncementListResponse } from '@rally/shared/contracts/announcements';
import { call, client } from '../../../../lib/api-client';

export const announcementKeys = { all: ['console', 'announcements'] as const };

export interface AnnouncementInput {
  title: string;
  content: string;
  is_active: boolean;
}

export async function fetchAnnouncements(): Promise<AdminAnnouncementListResponse['data']> {
  return (await call(client.GET('/api/admin/announcements', { params: { query: { page: 1, limit: 200 } } }))).data;
}

export async function saveAnnouncement(id: string | null, input: AnnouncementInput): Promise<AdminAnnouncement> {
  const res = id
    ? await call(client.PUT('/api/admin/announcements/{id}', { params: { path: { id } }, body: input }))
    : await call(client.POST('/api/admin/announcements', { body: input }));
  return res.data;
}

export async function deleteAnnouncement(id: string): Promise<void> {
  await call(client.DELETE('/api/admin/announcements/{id}', { params: { path: { id } } }));
}
