// Calls of the console's incident board. Lists are re-read when the live
// stream says an incident changed (lib/event-stream.ts), never on a timer.
import type { IncidentStatus } from '@rally/shared/catalog';
import type { CreateIncidentRequest, Incident, StaffRef } from '@rally/shared/contracts/incidents';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

export const incidentKeys = {
  all: ['console', 'incidents'] as const,
  list: (status: IncidentStatus | 'all') => ['console', 'incidents', 'list', status] as const,
  assignees: ['console', 'incidents', 'assignees'] as const,
};

export const incidentsQuery = (status: IncidentStatus | 'all' = 'all') =>
  queryOptions({
    queryKey: incidentKeys.list(status),
    queryFn: async () =>
      (await api.get<Envelope<Incident[]>>(status === 'all' ? '/admin/incidents' : `/admin/incidents?status=${status}`))
        .data,
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
