// Calls of the Event Day tab: stations and the review of flagged scans.

import type { Pagination } from '@rally/shared/contracts/common';
import type { FlaggedScan } from '@rally/shared/contracts/scans';
import type { CreateStationRequest, Station, UpdateStationRequest } from '@rally/shared/contracts/stations';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

export type ReviewState = 'open' | 'reviewed' | 'all';
export type ReviewDecision = 'accept' | 'void';
export const FLAGGED_PAGE_SIZE = 25;

/** Invalidating `all` refreshes stations and the queue: a review changes a station's scan count. */
export const eventDayKeys = {
  all: ['console', 'event-day'] as const,
  stations: ['console', 'event-day', 'stations'] as const,
  flagged: ['console', 'event-day', 'flagged'] as const,
  flaggedPage: (state: ReviewState, page: number) => ['console', 'event-day', 'flagged', state, page] as const,
};

export const stationsQuery = () =>
  queryOptions({
    queryKey: eventDayKeys.stations,
    queryFn: async () => (await api.get<Envelope<Station[]>>('/admin/stations')).data,
  });

export const flaggedScansQuery = (state: ReviewState, page: number) =>
  queryOptions({
    queryKey: eventDayKeys.flaggedPage(state, page),
    queryFn: async () => {
      const q = new URLSearchParams({ state, page: String(page), limit: String(FLAGGED_PAGE_SIZE) });
      return (await api.get<Envelope<{ scans: FlaggedScan[]; pagination: Pagination }>>(`/admin/scans/flagged?${q}`))
        .data;
    },
  });

export async function createStation(body: CreateStationRequest): Promise<Station> {
  return (await api.post<Envelope<Station>>('/admin/stations', body)).data;
}

export async function updateStation(id: string, body: UpdateStationRequest): Promise<Station> {
  return (await api.patch<Envelope<Station>>(`/admin/stations/${encodeURIComponent(id)}`, body)).data;
}

export async function deleteStation(id: string): Promise<void> {
  await api.delete(`/admin/stations/${encodeURIComponent(id)}`);
}

/** One day's station ids in their new order. */
export async function reorderStations(day: number, ids: string[]): Promise<Station[]> {
  return (await api.post<Envelope<Station[]>>('/admin/stations/reorder', { day, ids })).data;
}

export async function seedDefaultStations(): Promise<Station[]> {
  return (await api.post<Envelope<Station[]>>('/admin/stations/seed-defaults')).data;
}

export async function reviewScan(id: string, decision: ReviewDecision, note: string): Promise<FlaggedScan> {
  return (await api.post<Envelope<FlaggedScan>>(`/admin/scans/${encodeURIComponent(id)}/review`, { decision, note }))
    .data;
}
