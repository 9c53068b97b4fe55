// One route's riders as cards: number, kit name, category, state, last station and time.
// Long lists show a page at a time ("Show more"), so 1,000 riders never render at once.
import { categoryDisplay } from '@rally/shared/catalog/registration';
import { LIVE_STATE_LABELS, type LiveRider, type LiveState } from '@rally/shared/contracts/live';
import { Flag, MapPin } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { formatElapsed, formatSeenAt } from '../lib/live-format';

export const LIVE_PAGE_SIZE = 60;

export const STATE_STYLES: Record<LiveState, string> = {
  not_started: 'border-ink-600 bg-ink-800 text-ash',
  on_course: 'border-fire-500 bg-fire-500 text-ink-950',
  finished: 'border-jade-400 bg-jade-400 text-ink-950',
  dnf: 'border-ember-500 bg-ember-600 text-white',
  dns: 'border-ink-600 bg-ink-700 text-bone',
};

export function StatePill({ state }: { state: LiveState }) {
  return (
    <span
      data-testid="live-state"
      className={`inline-flex shrink-0 items-center rounded-md border-2 px-2 py-0.5 font-display text-sm tracking-wider uppercase ${STATE_STYLES[state]}`}
    >
      {LIVE_STATE_LABELS[state]}
    </span>
  );
}

function RiderCard({ rider, started }: { rider: LiveRider; started: boolean }) {
  const category = categoryDisplay(rider.category).name;
  return (
    <li
      data-testid="live-rider"
      data-rider-number={rider.riderNumber}
      className="flex items-center gap-3 rounded-lg border-2 border-ink-700 bg-ink-900 p-3"
    >
      <span className="w-16 shrink-0 text-center font-display text-3xl text-gold-300 tabular-nums">
        #{rider.riderNumber}
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <p className="min-w-0 truncate font-display text-xl tracking-wide text-bone uppercase">{rider.kitName}</p>
          <StatePill state={rider.state} />
        </div>
        <p className="text-sm font-bold text-ash uppercase">{category}</p>
        {started && rider.lastStation && rider.lastSeenAt && (
          <p data-testid="live-last-station" className="mt-1 flex items-start gap-1.5 font-bold text-bone">
            {rider.state === 'finished' ? (
              <Flag className="mt-1 size-4 shrink-0 text-jade-400" aria-hidden="true" />
            ) : (
              <MapPin className="mt-1 size-4 shrink-0 text-fire-400" aria-hidden="true" />
            )}
            <span className="min-w-0 wrap-anywhere">
              {rider.lastStation} · <time dateTime={rider.lastSeenAt}>{formatSeenAt(rider.lastSeenAt)}</time>
            </span>
          </p>
        )}
        {rider.elapsedMs !== undefined && (
          <p className="font-mono text-lg font-bold text-jade-400">{formatElapsed(rider.elapsedMs)}</p>
        )}
      </div>
    </li>
  );
}

export function LiveRiderList({ riders, started }: { riders: LiveRider[]; started: boolean }) {
  const [shown, setShown] = useState(LIVE_PAGE_SIZE);
  if (riders.length === 0) {
    return (
      <p className="rounded-lg border-2 border-dashed border-ink-600 p-6 text-center text-lg text-ash">
        No warrior matches.
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <ul className="grid grid-cols-1 gap-2 lg:grid-cols-2" aria-label="Riders">
        {riders.slice(0, shown).map((r) => (
          <RiderCard key={r.riderNumber} rider={r} started={started} />
        ))}
      </ul>
      {riders.length > shown && (
        <div className="flex flex-col items-center gap-2">
          <p className="text-ash">
            Showing {shown} of {riders.length}
          </p>
          <button
            type="button"
            className={buttonStyles('secondary')}
            onClick={() => setShown((n) => n + LIVE_PAGE_SIZE)}
          >
            Show more
          </button>
        </div>
      )}
    </div>
  );
}
