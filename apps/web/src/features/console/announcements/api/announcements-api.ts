// Calls of Announcements Management.
import type { AdminAnnouncement, AdminAnnouncementListResponse } from '@rally/shared/contracts/announcements';
import { api } from '../../../../lib/api-client';

export const announcementKeys = { all: ['console', 'announcements'] as const };

export interface AnnouncementInput {
  title: string;
  content: string;
  is_active: boolean;
}

export async function fetchAnnouncements(): Promise<AdminAnnouncementListResponse['data']> {
  return (await api.get<AdminAnnouncementListResponse>('/admin/announcements?page=1&limit=200')).data;
}

export async function saveAnnouncement(id: string | null, input: AnnouncementInput): Promise<AdminAnnouncement> {
  const res = id
    ? await api.put<{ data: AdminAnnouncement }>(`/admin/announcements/${encodeURIComponent(id)}`, input)
    : await api.post<{ data: AdminAnnouncement }>('/admin/announcements', input);
  return res.data;
}

export async function deleteAnnouncement(id: string): Promise<void> {
  await api.delete(`/admin/announcements/${encodeURIComponent(id)}`);
}
