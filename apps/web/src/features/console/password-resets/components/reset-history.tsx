import type { ResetHistoryEntry } from '@rally/shared/contracts/password-resets';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { ErrorPanel, LoadingPanel } from '../../components/list-states';
import { fetchResetHistory, resetKeys } from '../api/password-resets-api';

const BADGES: Record<ResetHistoryEntry['status'], { label: string; className: string }> = {
  used: { label: 'Used', className: 'border-jade-400 bg-jade-600/20 text-jade-400' },
  pending: { label: 'Pending', className: 'border-gold-500 bg-gold-500/15 text-gold-300' },
  // A link past its hour or replaced by a newer one can no longer be used.
  expired: { label: 'Expired', className: 'border-ink-600 bg-ink-800 text-ash' },
};

export function ResetHistory() {
  const history = useQuery({ queryKey: resetKeys.history, queryFn: fetchResetHistory });
  return (
    <section className="rounded-lg border border-ink-700 bg-ink-900 p-4" aria-labelledby="recent-resets">
      <h3 id="recent-resets" className="mb-3 flex items-center gap-2 text-xl text-bone">
        <History className="size-5 text-fire-400" aria-hidden="true" />
        Recent Password Resets
      </h3>
      {history.isPending ? (
        <LoadingPanel label="Loading resets..." />
      ) : history.isError ? (
        <ErrorPanel
          message="Failed to load password resets"
          detail={history.error.message}
          onRetry={() => history.refetch()}
        />
      ) : history.data.resets.length === 0 ? (
        <p className="py-6 text-center text-ash">No password resets generated yet</p>
      ) : (
        <ul className="max-h-[28rem] divide-y divide-ink-700 overflow-y-auto pr-1" data-testid="reset-history">
          {history.data.resets.map((r) => {
            const badge = BADGES[r.status];
            return (
              <li key={r.id} className="flex items-center justify-between gap-3 py-2.5" data-status={r.status}>
                <div className="min-w-0">
                  <p className="truncate text-sm font-bold text-bone">{r.userEmail}</p>
                  <p className="text-xs text-smoke">
                    {new Date(r.createdAt).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' })}
                    {r.createdBy ? ` · by ${r.createdBy}` : ''}
                  </p>
                </div>
                <span
                  className={`shrink-0 rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${badge.className}`}
                >
                  {badge.label}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
