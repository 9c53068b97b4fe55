// Dashboard: four counters and the Recent Activity feed.
import type { ActivityFeedItem } from '@rally/shared/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import { Activity, Flame, LayoutDashboard, MapPin, Swords, UserCheck, Users } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { formatRelativeTime } from '../../../../lib/format';
import { consoleKeys } from '../../api/console-keys';
import { fetchActivities, fetchDashboardStats } from '../../api/dashboard-api';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/list-states';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';

const TYPE_LABELS: Record<string, string> = {
  checkpoint_scan: 'Checkpoint Scan',
  sos_call: 'SOS Call',
  user_registration: 'User Registration',
  status_change: 'Status Change',
  fire_earned: 'Fire Earned',
  rally_completion: 'Rally Completion',
  verification: 'Verification',
  verification_undo: 'Verification Undone',
};

function activityLabel(type: string): string {
  return TYPE_LABELS[type] ?? type.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

// The feed is what staff glance at during the rally, so it keeps itself fresh.
const FEED_REFRESH_MS = 30_000;

export default function DashboardTab() {
  const stats = useQuery({
    queryKey: consoleKeys.dashboardStats,
    queryFn: fetchDashboardStats,
    refetchInterval: FEED_REFRESH_MS,
  });
  const feed = useQuery({
    queryKey: consoleKeys.activities,
    queryFn: () => fetchActivities(),
    refetchInterval: FEED_REFRESH_MS,
  });

  return (
    <section aria-labelledby="dashboard-title">
      <TabHeading title="Dashboard" icon={LayoutDashboard} />
      <h3 id="dashboard-title" className="sr-only">
        Rally statistics
      </h3>
      <StatGrid>
        <StatCard label="Total Warriors" value={stats.data?.total_warriors} icon={Users} />
        <StatCard label="Active Users" value={stats.data?.active_users} icon={UserCheck} tone="text-jade-400" />
        <StatCard label="BAGANI Warriors" value={stats.data?.bagani_warriors} icon={Swords} tone="text-gold-400" />
        <StatCard label="Total Fires" value={stats.data?.total_fires} icon={Flame} tone="text-ember-400" />
      </StatGrid>
      {stats.isError && <p className="mt-2 text-sm text-ember-400">Failed to load statistics: {stats.error.message}</p>}

      <div className="mt-6 rounded-lg border border-ink-700 bg-ink-900">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-ink-700 px-4 py-3">
          <h3 className="flex items-center gap-2 text-xl">
            <Activity className="size-5 text-fire-400" aria-hidden="true" />
            Recent Activity
          </h3>
          {/* Present as in the original console; a full activity page is not part of it yet. */}
          <button type="button" className={buttonStyles('ghost', 'md', 'px-3 text-sm')}>
            View All Activities
          </button>
        </div>
        <div className="p-3">
          {feed.isPending ? (
            <LoadingPanel label="Loading activity..." />
          ) : feed.isError ? (
            <ErrorPanel message="Failed to load activity" detail={feed.error.message} onRetry={() => feed.refetch()} />
          ) : feed.data.length === 0 ? (
            <EmptyPanel message="No activity yet." />
          ) : (
            <ul className="divide-y divide-ink-700" data-testid="activity-feed">
              {feed.data.map((item) => (
                <ActivityRow key={item.id} item={item} />
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

function ActivityRow({ item }: { item: ActivityFeedItem }) {
  const high = item.priority === 'high';
  return (
    <li className={`flex gap-3 px-2 py-3 ${high ? 'rounded-md bg-ember-700/15' : ''}`}>
      <span
        className={`mt-1.5 size-2.5 shrink-0 rounded-full ${high ? 'bg-ember-500' : item.priority === 'low' ? 'bg-ink-600' : 'bg-fire-500'}`}
        aria-hidden="true"
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs font-bold uppercase tracking-wide text-fire-300">{activityLabel(item.type)}</span>
          {high && (
            <span className="rounded-full bg-ember-600 px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide text-white">
              HIGH PRIORITY
            </span>
          )}
          <span className="ml-auto text-xs text-smoke">
            <time dateTime={item.timestamp}>{formatRelativeTime(item.timestamp)}</time>
          </span>
        </div>
        <p className="mt-1 font-bold text-bone">
          {item.user}
          {item.fullName && item.fullName !== item.user && (
            <span className="font-normal text-ash"> · {item.fullName}</span>
          )}
        </p>
        <p className="text-sm text-ash">{item.details}</p>
        {item.location && (
          <p className="mt-0.5 flex items-center gap-1 text-xs text-smoke">
            <MapPin className="size-3" aria-hidden="true" />
            {item.location}
          </p>
        )}
      </div>
    </li>
  );
}
