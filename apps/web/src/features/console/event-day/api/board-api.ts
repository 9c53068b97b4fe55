// Calls of the control board: counts per station, the riders behind each
// count, the overdue list, a rider's timeline, DNF/DNS decisions and route rules. The
// board never polls: the event stream invalidates these keys (use-board-stream.ts).
import type { BoardBucket, RallyRouteId } from '@rally/shared/catalog/event-day';
import type {
  CourseDecisionRequest,
  RiderCourseState,
  RouteRulesView,
  UpdateRouteRulesRequest,
} from '@rally/shared/contracts/course';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

/** Invalidating `all` refreshes everything the board shows. */
export const boardKeys = {
  all: ['console', 'event-board'] as const,
  counts: ['console', 'event-board', 'counts'] as const,
  bucket: (stationId: string, bucket: BoardBucket) => ['console', 'event-board', 'bucket', stationId, bucket] as const,
  overdue: ['console', 'event-board', 'overdue'] as const,
  onCourse: ['console', 'event-board', 'on-course'] as const,
  timeline: (riderId: string) => ['console', 'event-board', 'timeline', riderId] as const,
  rules: ['console', 'event-board', 'rules'] as const,
};

export const boardQuery = () =>
  queryOptions({
    queryKey: boardKeys.counts,
    queryFn: async () => (await call(client.GET('/api/admin/event/board'))).data,
    // Fresh until the stream says otherwise.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const bucketQuery = (stationId: string, bucket: BoardBucket) =>
  queryOptions({
    queryKey: boardKeys.bucket(stationId, bucket),
    queryFn: async () =>
      (
        await call(
          client.GET('/api/admin/event/board/{stationId}/riders', {
            params: { path: { stationId }, query: { bucket } },
          }),
        )
      ).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const overdueQuery = () =>
  queryOptions({
    queryKey: boardKeys.overdue,
    queryFn: async () => (await call(client.GET('/api/admin/event/overdue'))).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Riders on course, with when each is due next: tells the board when the next one turns overdue. */
export const onCourseQuery = () =>
  queryOptions({
    queryKey: boardKeys.onCourse,
    queryFn: async () =>
      (await call(client.GET('/api/admin/event/riders', { params: { query: { state: 'on_course' } } }))).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const timelineQuery = (riderId: string) =>
  queryOptions({
    queryKey: boardKeys.timeline(riderId),
    queryFn: async () =>
      (await call(client.GET('/api/admin/event/riders/{id}/timeline', { params: { path: { id: riderId } } }))).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const rulesQuery = () =>
  queryOptions({
    queryKey: boardKeys.rules,
    queryFn: async () => (await call(client.GET('/api/admin/event/rules'))).data,
  });

export async function decideRider(riderId: string, body: CourseDecisionRequest): Promise<RiderCourseState> {
  return (await call(client.POST('/api/admin/event/riders/{id}/decision', { params: { path: { id: riderId } }, body })))
    .data;
}

export async function saveRouteRules(routeId: RallyRouteId, body: UpdateRouteRulesRequest): Promise<RouteRulesView> {
  return (await call(client.PUT('/api/admin/event/rules/{routeId}', { params: { path: { routeId } }, body }))).data;
}
