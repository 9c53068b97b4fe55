// Calls of the console's incident board. Lists are re-read when the live
// stream says an incident changed (lib/event-stream.ts), never on a timer.
import type { IncidentStatus } from '@rally/shared/catalog';
import type { AbuseMarkedAccount, CreateIncidentRequest, Incident, StaffRef } from '@rally/shared/contracts/incidents';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

/** The list's answer: every unresolved incident, then a page of resolved ones. */
export interface IncidentPage {
  data: Incident[];
  /** Pass as `before` for the next page of resolved incidents; null at the end. */
  nextBefore: string | null;
}

export const incidentKeys = {
  all: ['console', 'incidents'] as const,
  list: (status: IncidentStatus | 'all') => ['console', 'incidents', 'list', status] as const,
  assignees: ['console', 'incidents', 'assignees'] as const,
  board: ['console', 'incidents', 'board'] as const,
  muted: ['console', 'incidents', 'muted'] as const,
  abuseMarks: ['console', 'incidents', 'abuse-marks'] as const,
};

export const incidentsQuery = (status: IncidentStatus | 'all' = 'all') =>
  queryOptions({
    queryKey: incidentKeys.list(status),
    queryFn: async () =>
      (await api.get<Envelope<Incident[]>>(status === 'all' ? '/admin/incidents' : `/admin/incidents?status=${status}`))
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
    queryFn: ({ pageParam }) =>
      api.get<IncidentPage>(
        pageParam ? `/admin/incidents?status=resolved&before=${encodeURIComponent(pageParam)}` : '/admin/incidents',
      ),
    getNextPageParam: (last) => last.nextBefore,
  });

/** Calls of accounts marked as abuse: kept apart from the board, and from the alarm. */
export const mutedIncidentsQuery = () =>
  queryOptions({
    queryKey: incidentKeys.muted,
    queryFn: async () => (await api.get<IncidentPage>('/admin/incidents?muted=true')).data,
  });

export const abuseMarksQuery = () =>
  queryOptions({
    queryKey: incidentKeys.abuseMarks,
    queryFn: async () => (await api.get<Envelope<AbuseMarkedAccount[]>>('/admin/incidents/abuse-marks')).data,
  });

export const assigneesQuery = () =>
  queryOptions({
    queryKey: incidentKeys.assignees,
    queryFn: async () => (await api.get<Envelope<StaffRef[]>>('/admin/incidents/assignees')).data,
    staleTime: 5 * 60_000,
  });

const path = (id: string, action: string) => `/admin/incidents/${encodeURIComponent(id)}/${action}`;

export async function acknowledgeIncident(id: string): Promise<Incident> {
  return (await api.post<Envelope<Incident>>(path(id, 'acknowledge'))).data;
}

export async function assignIncident(id: string, userId: string): Promise<Incident> {
  return (await api.post<Envelope<Incident>>(path(id, 'assign'), { userId })).data;
}

export async function resolveIncident(id: string, note: string): Promise<Incident> {
  return (await api.post<Envelope<Incident>>(path(id, 'resolve'), { note })).data;
}

export async function openIncident(body: CreateIncidentRequest): Promise<Incident> {
  return (await api.post<Envelope<Incident>>('/admin/incidents', body)).data;
}

/** Resolves the account's open SOS incidents and keeps its later calls apart, without the alarm. */
export async function markAbuse(id: string, note: string): Promise<Envelope<Incident>> {
  return api.post<Envelope<Incident>>(path(id, 'abuse'), { note });
}

export async function liftAbuseMark(userId: string): Promise<string> {
  return (
    await api.delete<{ success: boolean; message: string }>(
      `/admin/incidents/abuse-marks/${encodeURIComponent(userId)}`,
    )
  ).message;
}
