// The board's counts per station: Expected, Passed, Missed, Overdue, DNF (and DNS), each a
// button that opens the riders behind it. Cards on a phone, a table from 640 px.
import type { BoardBucket } from '@rally/shared/catalog/event-day';
import type { BoardStation } from '@rally/shared/contracts/course';
import { useWide } from '../hooks/use-wide';

export const BUCKET_LABELS: Record<BoardBucket, string> = {
  expected: 'Expected',
  passed: 'Passed',
  missed: 'Missed',
  overdue: 'Overdue',
  dnf: 'DNF',
  dns: 'DNS',
};

const COLUMNS: BoardBucket[] = ['expected', 'passed', 'missed', 'overdue', 'dnf', 'dns'];

// Zero reads quiet; a count that needs a marshal's attention stands out.
const TONE: Record<BoardBucket, string> = {
  expected: 'text-bone',
  passed: 'text-jade-400',
  missed: 'text-gold-300',
  overdue: 'text-ember-400',
  dnf: 'text-ember-400',
  dns: 'text-ash',
};

function CountButton({
  station,
  bucket,
  onOpen,
  compact,
}: {
  station: BoardStation;
  bucket: BoardBucket;
  onOpen: (station: BoardStation, bucket: BoardBucket) => void;
  compact: boolean;
}) {
  const n = station[bucket];
  const label = `${n} ${BUCKET_LABELS[bucket]} at ${station.name}`;
  return (
    <button
      type="button"
      aria-label={label}
      data-testid={`count-${bucket}`}
      onClick={() => onOpen(station, bucket)}
      className={`rounded-md font-display tabular-nums hover:bg-ink-700 focus-visible:bg-ink-700 ${
        n === 0 ? 'text-smoke' : TONE[bucket]
      } ${bucket === 'overdue' && n > 0 ? 'bg-ember-700/25 ring-2 ring-ember-500' : ''} ${
        compact
          ? 'flex min-h-14 w-full flex-col-reverse items-center justify-center px-1 py-1'
          : 'min-h-11 min-w-14 px-3 text-2xl'
      }`}
    >
      {/* The text reads as the name begins, "3 Overdue" (WCAG 2.5.3 Label in Name: count first,
          then a space, or "3Overdue" is one word); on a card the label is drawn above the count. */}
      <span className={compact ? 'text-2xl' : ''}>{n}</span>
      {compact && ' '}
      {compact && <span className="font-sans text-[0.7rem] font-bold text-ash uppercase">{BUCKET_LABELS[bucket]}</span>}
    </button>
  );
}

export function BoardStationGrid({
  stations,
  onOpen,
}: {
  stations: BoardStation[];
  onOpen: (station: BoardStation, bucket: BoardBucket) => void;
}) {
  const wide = useWide();
  if (!wide) {
    return (
      <ul className="space-y-3" aria-label="Stations">
        {stations.map((s) => (
          <li
            key={s.stationId}
            data-testid="board-station"
            data-station={s.name}
            className="rounded-lg border-2 border-ink-700 bg-ink-900 p-3"
          >
            <p className="mb-2 flex items-baseline justify-between gap-2">
              <span className="min-w-0 truncate font-display text-lg tracking-wide text-bone uppercase">{s.name}</span>
              <span className="shrink-0 text-xs font-bold text-ash uppercase">{s.kind}</span>
            </p>
            <div className="grid grid-cols-3 gap-1.5">
              {COLUMNS.map((b) => (
                <CountButton key={b} station={s} bucket={b} onOpen={onOpen} compact />
              ))}
            </div>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border-2 border-ink-700">
      <table className="w-full text-left">
        <thead className="bg-ink-850">
          <tr>
            <th scope="col" className="px-3 py-2 text-xs font-bold tracking-wide text-ash uppercase">
              Station
            </th>
            {COLUMNS.map((b) => (
              <th
                key={b}
                scope="col"
                className="px-2 py-2 text-center text-xs font-bold tracking-wide text-ash uppercase"
              >
                {BUCKET_LABELS[b]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stations.map((s) => (
            <tr key={s.stationId} data-testid="board-station" data-station={s.name} className="border-t border-ink-700">
              <th scope="row" className="px-3 py-2">
                <span className="block font-display text-lg tracking-wide text-bone uppercase">{s.name}</span>
                <span className="text-xs font-bold text-ash uppercase">{s.kind}</span>
              </th>
              {COLUMNS.map((b) => (
                <td key={b} className="px-1 py-1 text-center">
                  <CountButton station={s} bucket={b} onOpen={onOpen} compact={false} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
