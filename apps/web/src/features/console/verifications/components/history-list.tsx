import type { HistoryEntry } from '@rally/shared/contracts/verifications';
import { formatDate, formatTime } from '../../../../lib/format';

const ACTION_STYLES: Record<HistoryEntry['action'], { label: string; className: string }> = {
  verified: { label: 'Approved', className: 'border-jade-400 bg-jade-600/20 text-jade-400' },
  rejected: { label: 'Rejected', className: 'border-ember-500 bg-ember-700/30 text-ember-400' },
  undone: { label: 'Undone', className: 'border-sky-500 bg-sky-500/15 text-sky-300' },
};

export function HistoryList({ entries }: { entries: HistoryEntry[] }) {
  return (
    <ul
      className="divide-y divide-ink-700 rounded-lg border border-ink-700 bg-ink-900"
      data-testid="verification-history"
    >
      {entries.map((h) => {
        const style = ACTION_STYLES[h.action];
        const who = h.kit_name || `${h.user_first_name ?? ''} ${h.user_last_name ?? ''}`.trim() || 'Deleted user';
        const admin = `${h.admin_first_name ?? ''} ${h.admin_last_name ?? ''}`.trim() || 'System';
        const at = new Date(h.verified_at);
        return (
          <li key={h.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-start sm:gap-4">
            <span
              className={`inline-flex w-fit shrink-0 rounded-full border px-2 py-0.5 text-xs font-bold uppercase ${style.className}`}
            >
              {style.label}
            </span>
            <div className="min-w-0 flex-1">
              <p className="text-bone">
                <span className="font-bold">{who}</span>
                {h.verification_code && (
                  <span className="ml-2 font-mono text-sm text-gold-300">{h.verification_code}</span>
                )}
              </p>
              <p className="text-sm text-ash">
                by {admin} · {formatDate(at)} {formatTime(at)}
              </p>
              {h.notes && <p className="mt-1 text-sm text-smoke">“{h.notes}”</p>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
