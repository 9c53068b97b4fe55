// Finishers of a route, fastest first, with their elapsed time: the results once the
// event is over, the leaderboard while it runs.
import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { LiveFinisher } from '@rally/shared/contracts/live';
import { Trophy } from 'lucide-react';
import { formatElapsed } from '../lib/live-format';

const PODIUM = ['text-gold-300', 'text-bone', 'text-fire-300'];

export function LiveResults({ finishers, title }: { finishers: LiveFinisher[]; title: string }) {
  return (
    <section aria-labelledby="results-heading" className="space-y-3">
      <h2
        id="results-heading"
        className="flex items-center gap-2 font-display text-2xl tracking-wider text-bone uppercase"
      >
        <Trophy className="size-6 text-gold-300" aria-hidden="true" />
        {title}
      </h2>
      {finishers.length === 0 ? (
        <p className="text-ash">No finisher yet.</p>
      ) : (
        <ol className="space-y-2" data-testid="live-finishers">
          {finishers.map((f) => (
            <li
              key={f.riderNumber}
              className="flex items-center gap-3 rounded-lg border-2 border-jade-600 bg-ink-900 px-3 py-2"
            >
              <span className={`w-10 shrink-0 text-center font-display text-3xl ${PODIUM[f.rank - 1] ?? 'text-ash'}`}>
                {f.rank}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-display text-lg tracking-wide text-bone uppercase">
                  <span className="text-gold-300">#{f.riderNumber}</span> {f.kitName}
                </p>
                <p className="text-sm font-bold text-ash uppercase">{categoryDisplay(f.category).name}</p>
              </div>
              <span className="shrink-0 font-mono text-xl font-bold text-jade-400 tabular-nums">
                {formatElapsed(f.elapsedMs)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
