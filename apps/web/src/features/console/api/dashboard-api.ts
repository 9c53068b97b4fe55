// Calls of the Dashboard.
import { RECENT_ACTIVITIES_LIMIT } from '@rally/shared/catalog';
import type { ActivityFeedItem, DashboardStats } from '@rally/shared/contracts/dashboard';
import { api } from '../../../lib/api-client';

export async function fetchDashboardStats(): Promise<DashboardStats> {
  return (await api.get<{ data: DashboardStats }>('/admin/dashboard/stats')).data;
}

export async function fetchActivities(limit = RECENT_ACTIVITIES_LIMIT, offset = 0): Promise<ActivityFeedItem[]> {
  const res = await api.get<{ data: { activities: ActivityFeedItem[] } }>(
    `/admin/activities?limit=${limit}&offset=${offset}`,
  );
  return res.data.activities;
}
