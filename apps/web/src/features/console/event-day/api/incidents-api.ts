// Calls of the console's incident board. Lists are re-read when the live
// stream says an incident changed (lib/event-stream.ts), never on a timer.
import type { IncidentStatus } from '@rally/shared/catalog/event-day';
import type { CreateIncidentRequest, Incident } from '@rally/shared/contracts/incidents';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ApiError, call, client } from '../../../../lib/api-client';
import { CURRENT_EDITION_KEY, LIVE_EDITION } from '../../../../lib/viewed-edition';

export const incidentKeys = {
  all: ['console', 'incidents'] as const,
  list: (status: IncidentStatus | 'all') => ['console', 'incidents', 'list', status] as const,
  assignees: ['console', 'incidents', 'assignees'] as const,
  board: ['console', 'incidents', 'board'] as const,
  muted: ['console', 'incidents', 'muted'] as const,
  abuseMarks: ['console', 'incidents', 'abuse-marks'] as const,
  one: (id: string) => ['console', 'incidents', 'one', id] as const,
};

export const incidentsQuery = (status: IncidentStatus | 'all' = 'all') =>
  queryOptions({
    queryKey: incidentKeys.list(status),
    queryFn: async () =>
      (await call(client.GET('/api/admin/incidents', { params: { query: status === 'all' ? {} : { status } } }))).data,
  });

/** Today's open incidents, whatever edition the console browses: the SOS alarm's. */
export const liveOpenIncidentsQuery = () =>
  queryOptions({
    queryKey: [...incidentKeys.list('open'), CURRENT_EDITION_KEY] as const,
    queryFn: async () =>
      (await call(client.GET('/api/admin/incidents', { params: { query: { status: 'open' } }, headers: LIVE_EDITION })))
        .data,
  });

/**
 * The board: the first page holds every unresolved incident (never cut) and the newest
 * resolved ones; each further page older resolved ones.
 */
export const boardQuery = () =>
  infiniteQueryOptions({
    queryKey: incidentKeys.board,
    initialPageParam: null as string | null,
    // Each page is the list's answer: incidents, and `nextBefore` (null at the end) for the next one.
    queryFn: ({ pageParam }) =>
      call(
        client.GET('/api/admin/incidents', {
          params: { query: pageParam ? { status: 'resolved', before: pageParam } : {} },
        }),
      ),
    getNextPageParam: (last) => last.nextBefore,
  });

/** One incident, whatever its state: the one a notification's link names. */
export const incidentQuery = (id: string) =>
  queryOptions({
    queryKey: incidentKeys.one(id),
    queryFn: async () => (await call(client.GET('/api/admin/incidents/{id}', { params: { path: { id } } }))).data,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

/** Calls of accounts marked as abuse: kept apart from the board, and from the alarm. */
export const mutedIncidentsQuery = () =>
  queryOptions({
    queryKey: incidentKeys.muted,
    queryFn: async () =>
      (await call(client.GET('/api/admin/incidents', { params: { query: { muted: 'true' } } }))).data,
  });

export const abuseMarksQuery = () =>
  queryOptions({
    queryKey: incidentKeys.abuseMarks,
    queryFn: async () => (await call(client.GET('/api/admin/incidents/abuse-marks'))).data,
  });

export const assigneesQuery = () =>
  queryOptions({
    queryKey: incidentKeys.assignees,
    queryFn: async () => (await call(client.GET('/api/admin/incidents/assignees'))).data,
    staleTime: 5 * 60_000,
  });

const incident = (id: string) => ({ params: { path: { id } } });

export async function acknowledgeIncident(id: string, live = false): Promise<Incident> {
  return (
    await call(
      client.POST('/api/admin/incidents/{id}/acknowledge', { ...incident(id), headers: live ? LIVE_EDITION : {} }),
    )
  ).data;
}

export async function assignIncident(id: string, userId: string): Promise<Incident> {
  return (await call(client.POST('/api/admin/incidents/{id}/assign', { ...incident(id), body: { userId } }))).data;
}

export async function resolveIncident(id: string, note: string): Promise<Incident> {
  return (await call(client.POST('/api/admin/incidents/{id}/resolve', { ...incident(id), body: { note } }))).data;
}

export async function openIncident(body: CreateIncidentRequest): Promise<Incident> {
  return (await call(client.POST('/api/admin/incidents', { body }))).data;
}

/** Resolves the account's open SOS incidents and keeps its later calls apart, without the alarm. */
export async function markAbuse(id: string, note: string) {
  return call(client.POST('/api/admin/incidents/{id}/abuse', { ...incident(id), body: { note } }));
}

export async function liftAbuseMark(userId: string): Promise<string> {
  const path = { userId };
  return (await call(client.DELETE('/api/admin/incidents/abuse-marks/{userId}', { params: { path } }))).message;
}
