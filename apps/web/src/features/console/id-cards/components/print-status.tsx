import { CircleCheck, CircleDashed } from 'lucide-react';

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString('en-PH', { year: 'numeric', month: 'short', day: 'numeric' });

export function PrintStatus({ count, printedAt }: { count: number; printedAt: string | null }) {
  if (count === 0) {
    return (
      <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full border border-ink-600 bg-ink-800 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-ash">
        <CircleDashed className="size-3" aria-hidden="true" />
        Not Printed
      </span>
    );
  }
  return (
    <div>
      <span className="inline-flex items-center gap-1 whitespace-nowrap rounded-full border border-jade-400 bg-jade-600/20 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-jade-400">
        <CircleCheck className="size-3" aria-hidden="true" />
        Printed{count > 1 ? ` (${count}x)` : ''}
      </span>
      {printedAt && <p className="mt-1 text-xs text-smoke">{dateText(printedAt)}</p>}
    </div>
  );
}
