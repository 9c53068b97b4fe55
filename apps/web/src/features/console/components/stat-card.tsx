import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export function StatCard({
  label,
  value,
  icon: Icon,
  tone = 'text-fire-400',
  hint,
}: {
  label: string;
  value: number | string | undefined;
  icon: LucideIcon;
  tone?: string;
  hint?: ReactNode;
}) {
  return (
    <div className="flex items-center gap-3 rounded-lg border border-ink-700 bg-ink-900 p-3 sm:p-4">
      <span
        className={`hidden size-11 shrink-0 items-center justify-center rounded-md bg-ink-800 min-[480px]:flex ${tone}`}
      >
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="text-xs font-bold uppercase tracking-wide text-ash">{label}</p>
        <p
          className="font-display text-3xl text-bone"
          data-testid={`stat-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`}
        >
          {value === undefined ? '—' : typeof value === 'number' ? value.toLocaleString('en-PH') : value}
        </p>
        {hint && <p className="text-xs text-smoke">{hint}</p>}
      </div>
    </div>
  );
}

export function StatGrid({ children, className = 'lg:grid-cols-4' }: { children: ReactNode; className?: string }) {
  return <div className={`grid grid-cols-2 gap-2 sm:gap-3 ${className}`}>{children}</div>;
}
