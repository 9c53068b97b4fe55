// Calls of System Logs.
import { LOGS_PAGE_SIZE, type LogDateRange } from '@rally/shared/catalog/console';
import type { LogStats, LogsResponse, LogTypeFilter } from '@rally/shared/contracts/logs';
import { call, client } from '../../../../lib/api-client';

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

function filterParams(f: Omit<LogFilters, 'sortOrder'>) {
  return { logType: f.logType, dateRange: f.dateRange, search: f.search || undefined };
}

export async function fetchLogs(filters: LogFilters, page: number): Promise<LogsResponse['data']> {
  const query = {
    ...filterParams(filters),
    page,
    limit: LOGS_PAGE_SIZE,
    sortBy: 'timestamp' as const,
    sortOrder: filters.sortOrder,
  };
  return (await call(client.GET('/api/admin/logs', { params: { query } }))).data;
}

export async function fetchLogStats(filters: Omit<LogFilters, 'sortOrder'>): Promise<LogStats> {
  return (await call(client.GET('/api/admin/logs/stats', { params: { query: filterParams(filters) } }))).data;
}
