// Calls of the control board: counts per station, the riders behind each
// count, the overdue list, a rider's timeline, DNF/DNS decisions and route rules. The
// board never polls: the event stream invalidates these keys (use-board-stream.ts).
import type { BoardBucket, RallyRouteId } from '@rally/shared/catalog';
import type {
  BoardStation,
  CourseDecisionRequest,
  RiderCourseState,
  RouteRulesView,
  TimelineEntry,
  UpdateRouteRulesRequest,
} from '@rally/shared/contracts/course';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

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
    queryFn: async () => (await api.get<Envelope<BoardStation[]>>('/admin/event/board')).data,
    // Fresh until the stream says otherwise.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const bucketQuery = (stationId: string, bucket: BoardBucket) =>
  queryOptions({
    queryKey: boardKeys.bucket(stationId, bucket),
    queryFn: async () =>
      (
        await api.get<Envelope<{ station: { id: string; name: string; day: number }; riders: RiderCourseState[] }>>(
          `/admin/event/board/${encodeURIComponent(stationId)}/riders?bucket=${bucket}`,
        )
      ).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const overdueQuery = () =>
  queryOptions({
    queryKey: boardKeys.overdue,
    queryFn: async () =>
      (await api.get<Envelope<{ day: number; riders: RiderCourseState[] }>>('/admin/event/overdue')).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Riders on course, with when each is due next: tells the board when the next one turns overdue. */
export const onCourseQuery = () =>
  queryOptions({
    queryKey: boardKeys.onCourse,
    queryFn: async () =>
      (await api.get<Envelope<{ day: number; riders: RiderCourseState[] }>>('/admin/event/riders?state=on_course'))
        .data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const timelineQuery = (riderId: string) =>
  queryOptions({
    queryKey: boardKeys.timeline(riderId),
    queryFn: async () =>
      (
        await api.get<Envelope<{ state: RiderCourseState; entries: TimelineEntry[] }>>(
          `/admin/event/riders/${encodeURIComponent(riderId)}/timeline`,
        )
      ).data,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const rulesQuery = () =>
  queryOptions({
    queryKey: boardKeys.rules,
    queryFn: async () => (await api.get<Envelope<RouteRulesView[]>>('/admin/event/rules')).data,
  });

export async function decideRider(riderId: string, body: CourseDecisionRequest): Promise<RiderCourseState> {
  return (
    await api.post<Envelope<RiderCourseState>>(`/admin/event/riders/${encodeURIComponent(riderId)}/decision`, body)
  ).data;
}

export async function saveRouteRules(routeId: RallyRouteId, body: UpdateRouteRulesRequest): Promise<RouteRulesView> {
  return (await api.put<Envelope<RouteRulesView>>(`/admin/event/rules/${routeId}`, body)).data;
}
