// Calls of the console's "Who looked" panel and breach kit (DESIGN.md §12, view_logs).
import type { AffectedRider, DataAccessEntry, DataAccessPerson } from '@rally/shared/contracts/data-access';
import { call, client } from '../../../../lib/api-client';
import { downloadFile } from '../../../../lib/download';

export const dataAccessKeys = {
  all: ['console', 'data-access'] as const,
  log: (q: DataAccessFilters) => ['console', 'data-access', 'log', q] as const,
  people: (who: PeopleKind, search: string) => ['console', 'data-access', 'people', who, search] as const,
  affected: (q: AffectedFilters) => ['console', 'data-access', 'affected', q] as const,
};

export type PeopleKind = 'riders' | 'staff';

export interface DataAccessFilters {
  userId?: string;
  staffId?: string;
  from?: string;
  to?: string;
  page: number;
}

export const DATA_ACCESS_PAGE_SIZE = 25;

export async function fetchDataAccess(q: DataAccessFilters) {
  return (
    await call(client.GET('/api/admin/data-access', { params: { query: { ...q, limit: DATA_ACCESS_PAGE_SIZE } } }))
  ).data;
}

export async function findPeople(who: PeopleKind, search: string): Promise<DataAccessPerson[]> {
  return (
    await call(
      client.GET('/api/admin/data-access/people', {
        params: { query: { who, search: search || undefined, limit: 8 } },
      }),
    )
  ).data;
}

export interface AffectedFilters {
  from: string;
  to: string;
  staffId?: string;
  ip?: string;
}

export async function fetchAffected(q: AffectedFilters): Promise<AffectedRider[]> {
  return (await call(client.GET('/api/admin/data-access/affected', { params: { query: { ...q, format: 'json' } } })))
    .data;
}

/** The breach kit as CSV: fetched with the session, then handed to the browser. */
export function downloadAffectedCsv(q: AffectedFilters) {
  const params = new URLSearchParams({ from: q.from, to: q.to, format: 'csv' });
  if (q.staffId) params.set('staffId', q.staffId);
  if (q.ip) params.set('ip', q.ip);
  return downloadFile(`/admin/data-access/affected?${params}`, 'affected-riders.csv');
}

/** A date input's day as the start or the end of that day in Manila (the rally's clock). */
export function manilaDayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}+08:00`).toISOString();
}

/** A datetime-local input's value read as Manila time. */
export function manilaMoment(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}+08:00`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export type { AffectedRider, DataAccessEntry, DataAccessPerson };
