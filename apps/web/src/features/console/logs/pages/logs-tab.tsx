// System Logs: activities, verification decisions and login
// attempts in one list, filtered, sorted and paged by the server.
import type { LogDateRange } from '@rally/shared/catalog/console';
import type { LogEntry, LogTypeFilter } from '@rally/shared/contracts/logs';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, BadgeCheck, Layers, LogIn, MapPin, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { PagedResults, QueryStates } from '../../components/list-states';
import { RefreshButton } from '../../components/refresh-button';
import { LabelledSearchField } from '../../components/search-field';
import { SelectField } from '../../components/select-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { fetchLogStats, fetchLogs, type LogFilters, logKeys } from '../api/logs-api';
import { LogDetailsModal } from '../components/log-details-modal';
import { LogTypeBadge, logTime } from '../components/log-display';

const TYPES: ReadonlyArray<readonly [LogTypeFilter, string]> = [
  ['all', 'All Types'],
  ['activities', 'Activities'],
  ['verifications', 'Verifications'],
  ['login_activities', 'Login Activities'],
];
const RANGES: ReadonlyArray<readonly [LogDateRange, string]> = [
  ['all', 'All Time'],
  ['today', 'Today'],
  ['week', 'This Week'],
  ['month', 'This Month'],
];
const ORDERS: ReadonlyArray<readonly ['desc' | 'asc', string]> = [
  ['desc', 'Newest First'],
  ['asc', 'Oldest First'],
];

export default function LogsTab() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const [logType, setLogType] = useState<LogTypeFilter>('all');
  const [dateRange, setDateRange] = useState<LogDateRange>('all');
  const [sortOrder, setSortOrder] = useState<'desc' | 'asc'>('desc');
  const { page, setPage, resetting } = usePage();
  const [open, setOpen] = useState<LogEntry | null>(null);
  const search = useDebounced(searchText.trim());

  const filters: LogFilters = { search, logType, dateRange, sortOrder };
  const list = useQuery({
    queryKey: logKeys.list(filters, page),
    queryFn: () => fetchLogs(filters, page),
    placeholderData: keepPreviousData,
  });
  const statFilters = { search, logType, dateRange };
  const stats = useQuery({ queryKey: logKeys.stats(statFilters), queryFn: () => fetchLogStats(statFilters) });

  return (
    <section>
      <TabHeading
        title="System Logs"
        icon={ScrollText}
        actions={
          <RefreshButton
            fetching={list.isFetching}
            onRefresh={() => queryClient.invalidateQueries({ queryKey: logKeys.all })}
          />
        }
      />
      <StatGrid>
        <StatCard label="Total Logs" value={stats.data?.total_logs} icon={Layers} />
        <StatCard label="Activities" value={stats.data?.activities.total_activities} icon={Activity} />
        <StatCard
          label="Verifications"
          value={stats.data?.verifications.total_verifications}
          icon={BadgeCheck}
          tone="text-jade-400"
        />
        <StatCard
          label="Login Activities"
          value={stats.data?.login_activities.total_login_activities}
          icon={LogIn}
          tone="text-sky-300"
        />
      </StatGrid>

      <div className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr] lg:items-end">
        <LabelledSearchField
          className="sm:col-span-2 lg:col-span-1"
          label="Search logs"
          placeholder="User, email, description, details..."
          value={searchText}
          onChange={resetting(setSearchText)}
        />
        <SelectField label="Type" value={logType} onChange={resetting(setLogType)} options={TYPES} />
        <SelectField label="Date range" value={dateRange} onChange={resetting(setDateRange)} options={RANGES} />
        <SelectField label="Sort" value={sortOrder} onChange={resetting(setSortOrder)} options={ORDERS} />
      </div>

      <div className="mt-4">
        <QueryStates
          query={list}
          loadingLabel="Loading logs..."
          errorMessage="Failed to load logs"
          retryLabel="Try Again"
        >
          {(data) => (
            <PagedResults
              shown={data.logs.length}
              total={data.pagination.total}
              noun="logs"
              emptyMessage="No logs found"
              pagination={{
                page: data.pagination.page,
                totalPages: data.pagination.totalPages,
                onPage: setPage,
                label: 'Log pages',
              }}
            >
              <ul className="max-h-[70dvh] space-y-2 overflow-y-auto pr-1" data-testid="log-list">
                {data.logs.map((log) => (
                  <li key={log.id}>
                    <button
                      type="button"
                      onClick={() => setOpen(log)}
                      className="w-full rounded-lg border border-ink-700 bg-ink-900 p-3 text-left transition-colors hover:border-fire-500 hover:bg-ink-850"
                    >
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <div className="flex min-w-0 flex-wrap items-center gap-2">
                          <LogTypeBadge type={log.log_type} />
                          <span className="truncate text-sm font-bold text-bone">{log.user_name || 'System'}</span>
                        </div>
                        <time dateTime={log.log_timestamp} className="text-xs text-smoke">
                          {logTime(log)}
                        </time>
                      </div>
                      <p className="mt-1.5 text-sm text-bone">{log.description}</p>
                      {log.details && <p className="mt-0.5 line-clamp-2 text-xs text-ash">{log.details}</p>}
                      {log.location && (
                        <p className="mt-1 flex items-center gap-1 text-xs text-smoke">
                          <MapPin className="size-3" aria-hidden="true" />
                          {log.location}
                        </p>
                      )}
                    </button>
                  </li>
                ))}
              </ul>
            </PagedResults>
          )}
        </QueryStates>
      </div>
      <LogDetailsModal log={open} onClose={() => setOpen(null)} />
    </section>
  );
}
