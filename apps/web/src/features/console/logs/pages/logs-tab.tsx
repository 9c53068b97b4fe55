// System Logs (spec/staff-console.md §2): activities, verification decisions and login
// attempts in one list, filtered, sorted and paged by the server.
import type { LogDateRange } from '@rally/shared/catalog';
import type { LogEntry, LogTypeFilter } from '@rally/shared/contracts/logs';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, BadgeCheck, Layers, LogIn, MapPin, RefreshCw, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { labelStyles } from '../../../../components/ui/field-styles';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/list-states';
import { PaginationBar } from '../../components/pagination-bar';
import { SearchField } from '../../components/search-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { SelectField } from '../../kit-tracker/components/select-field';
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
  const [page, setPage] = useState(1);
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

  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <section>
      <TabHeading
        title="System Logs"
        icon={ScrollText}
        actions={
          <button
            type="button"
            onClick={() => queryClient.invalidateQueries({ queryKey: logKeys.all })}
            disabled={list.isFetching}
            className={buttonStyles('secondary')}
          >
            <RefreshCw className={`size-4 ${list.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
            Refresh
          </button>
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
        <div className="sm:col-span-2 lg:col-span-1">
          <span className={labelStyles} aria-hidden="true">
            Search
          </span>
          <SearchField
            label="Search logs"
            placeholder="User, email, description, details..."
            value={searchText}
            onChange={(v) => {
              setSearchText(v);
              setPage(1);
            }}
          />
        </div>
        <SelectField label="Type" value={logType} onChange={change(setLogType)} options={TYPES} />
        <SelectField label="Date range" value={dateRange} onChange={change(setDateRange)} options={RANGES} />
        <SelectField label="Sort" value={sortOrder} onChange={change(setSortOrder)} options={ORDERS} />
      </div>

      <div className="mt-4">
        {list.isPending ? (
          <LoadingPanel label="Loading logs..." />
        ) : list.isError ? (
          <ErrorPanel
            message="Failed to load logs"
            detail={list.error.message}
            onRetry={() => list.refetch()}
            retryLabel="Try Again"
          />
        ) : (
          <>
            <p className="mb-2 text-sm text-ash" aria-live="polite">
              Showing {list.data.logs.length} of {list.data.pagination.total} logs
            </p>
            {list.data.logs.length === 0 ? (
              <EmptyPanel message="No logs found" />
            ) : (
              <ul className="max-h-[70dvh] space-y-2 overflow-y-auto pr-1" data-testid="log-list">
                {list.data.logs.map((log) => (
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
            )}
            <PaginationBar
              page={list.data.pagination.page}
              totalPages={list.data.pagination.totalPages}
              onPage={setPage}
              label="Log pages"
            />
          </>
        )}
      </div>
      <LogDetailsModal log={open} onClose={() => setOpen(null)} />
    </section>
  );
}
