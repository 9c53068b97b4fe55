// Calls of System Logs.
import { LOGS_PAGE_SIZE, type LogDateRange } from '@rally/shared/catalog';
import type { LogStats, LogsResponse, LogTypeFilter } from '@rally/shared/contracts/logs';
import { api } from '../../../../lib/api-client';

export interface LogFilters {
  search: string;
  logType: LogTypeFilter;
  dateRange: LogDateRange;
  sortOrder: 'desc' | 'asc';
}

export const logKeys = {
  all: ['console', 'logs'] as const,
  list: (filters: LogFilters, page: number) => ['console', 'logs', 'list', filters, page] as const,
  stats: (filters: Omit<LogFilters, 'sortOrder'>) => ['console', 'logs', 'stats', filters] as const,
};

function filterParams(f: Omit<LogFilters, 'sortOrder'>): URLSearchParams {
  const q = new URLSearchParams({ logType: f.logType, dateRange: f.dateRange });
  if (f.search) q.set('search', f.search);
  return q;
}

export async function fetchLogs(filters: LogFilters, page: number): Promise<LogsResponse['data']> {
  const q = filterParams(filters);
  q.set('page', String(page));
  q.set('limit', String(LOGS_PAGE_SIZE));
  q.set('sortBy', 'timestamp');
  q.set('sortOrder', filters.sortOrder);
  return (await api.get<LogsResponse>(`/admin/logs?${q}`)).data;
}

export async function fetchLogStats(filters: Omit<LogFilters, 'sortOrder'>): Promise<LogStats> {
  return (await api.get<{ data: LogStats }>(`/admin/logs/stats?${filterParams(filters)}`)).data;
}
