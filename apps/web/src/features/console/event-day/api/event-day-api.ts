// Calls of the Event Day tab: stations and the review of flagged scans.

import type { FlaggedScan } from '@rally/shared/contracts/scans';
import type { CreateStationRequest, Station, UpdateStationRequest } from '@rally/shared/contracts/stations';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

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
    queryFn: async () => (await call(client.GET('/api/admin/stations'))).data,
  });

export const flaggedScansQuery = (state: ReviewState, page: number) =>
  queryOptions({
    queryKey: eventDayKeys.flaggedPage(state, page),
    queryFn: async () => {
      const query = { state, page, limit: FLAGGED_PAGE_SIZE };
      return (await call(client.GET('/api/admin/scans/flagged', { params: { query } }))).data;
    },
  });

export async function createStation(body: CreateStationRequest): Promise<Station> {
  return (await call(client.POST('/api/admin/stations', { body }))).data;
}

export async function updateStation(id: string, body: UpdateStationRequest): Promise<Station> {
  return (await call(client.PATCH('/api/admin/stations/{id}', { params: { path: { id } }, body }))).data;
}

export async function deleteStation(id: string): Promise<void> {
  await call(client.DELETE('/api/admin/stations/{id}', { params: { path: { id } } }));
}

/** One day's station ids in their new order. */
export async function reorderStations(day: number, ids: string[]): Promise<Station[]> {
  return (await call(client.POST('/api/admin/stations/reorder', { body: { day, ids } }))).data;
}

export async function seedDefaultStations(): Promise<Station[]> {
  return (await call(client.POST('/api/admin/stations/seed-defaults'))).data;
}

export async function reviewScan(id: string, decision: ReviewDecision, note: string): Promise<FlaggedScan> {
  const review = { params: { path: { id } }, body: { decision, note } };
  return (await call(client.POST('/api/admin/scans/{id}/review', review))).data;
}
