// Dashboard contracts: the counters and the activity feed.
import { z } from 'zod';
import { ACTIVITY_PRIORITIES } from '../catalog/console';
import { envelope, intParam } from './common';

/**
 * Total Warriors: rider accounts (participant and guest); Active Users: those of them
 * whose status is active; BAGANI Warriors: riders in bagani or bagani-obr; Total Fires:
 * every fire given.
 */
export const dashboardStats = z.object({
  total_warriors: z.number().int(),
  active_users: z.number().int(),
  bagani_warriors: z.number().int(),
  total_fires: z.number().int(),
});
export type DashboardStats = z.infer<typeof dashboardStats>;
export const dashboardStatsResponse = envelope(dashboardStats);

export const activityFeedItem = z.object({
  id: z.string(),
  type: z.string(),
  priority: z.enum(ACTIVITY_PRIORITIES),
  /** The rider's kit name when they have one, else their name, else the acting staff member or 'System'. */
  user: z.string(),
  fullName: z.string().nullable(),
  details: z.string(),
  location: z.string().nullable(),
  timestamp: z.string(),
});
export type ActivityFeedItem = z.infer<typeof activityFeedItem>;

export const activitiesQuery = z.object({
  limit: intParam('limit', { min: 1, max: 100, default: 20 }),
  offset: intParam('offset', { min: 0, max: 1_000_000, default: 0 }),
});

export const activitiesResponse = envelope(
  z.object({ activities: z.array(activityFeedItem), total: z.number().int(), hasMore: z.boolean() }),
);

export const sampleActivitiesResponse = envelope(z.object({ created: z.number().int() }));
