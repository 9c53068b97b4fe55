// Calls of the Dashboard.
import { RECENT_ACTIVITIES_LIMIT } from '@rally/shared/catalog/console';
import type { ActivityFeedItem, DashboardStats } from '@rally/shared/contracts/dashboard';
import { call, client } from '../../../lib/api-client';

export async function fetchDashboardStats(): Promise<DashboardStats> {
  return (await call(client.GET('/api/admin/dashboard/stats'))).data;
}

export async function fetchActivities(limit = RECENT_ACTIVITIES_LIMIT, offset = 0): Promise<ActivityFeedItem[]> {
  return (await call(client.GET('/api/admin/activities', { params: { query: { limit, offset } } }))).data.activities;
}
