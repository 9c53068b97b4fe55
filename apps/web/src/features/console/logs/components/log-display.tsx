import type { LogType } from '@rally/shared/catalog/console';
import type { LogEntry } from '@rally/shared/contracts/logs';
import { Activity, BadgeCheck, LogIn, type LucideIcon } from 'lucide-react';

const TYPES: Record<LogType, { label: string; icon: LucideIcon; className: string }> = {
  activities: { label: 'Activity', icon: Activity, className: 'border-fire-500 bg-fire-500/15 text-fire-300' },
  verifications: { label: 'Verification', icon: BadgeCheck, className: 'border-jade-400 bg-jade-600/20 text-jade-400' },
  login_activities: { label: 'Login', icon: LogIn, className: 'border-sky-500 bg-sky-500/15 text-sky-300' },
};

export function LogTypeBadge({ type }: { type: LogType }) {
  const t = TYPES[type] ?? TYPES.activities;
  const Icon = t.icon;
  return (
    <span
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide ${t.className}`}
    >
      <Icon className="size-3" aria-hidden="true" />
      {t.label}
    </span>
  );
}

/** The server's formatted time, else one derived from the raw timestamp. */
export function logTime(log: Pick<LogEntry, 'formatted_timestamp' | 'log_timestamp'>): string {
  if (log.formatted_timestamp) return log.formatted_timestamp;
  const date = new Date(log.log_timestamp);
  return Number.isNaN(date.getTime()) ? 'Unknown' : date.toLocaleString('en-PH');
}
