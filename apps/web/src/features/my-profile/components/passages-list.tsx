import { STATION_KIND_LABELS, type StationKindName } from '@rally/shared/catalog/event-day';
import { useQuery } from '@tanstack/react-query';
import { Flag, MapPin } from 'lucide-react';
import { passagesQuery } from '../api/my-profile-api';

function passageTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-PH', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

const kindLabel = (kind: string) => STATION_KIND_LABELS[kind as StationKindName] ?? kind;

/** The stations this rider has been recorded at, in the order they were passed. */
export function PassagesList({ userId }: { userId: string }) {
  const query = useQuery(passagesQuery(userId));
  const passages = query.data;
  return (
    <section aria-labelledby="passages-heading" className="w-full max-w-3xl" data-testid="passages">
      <h3 id="passages-heading" className="flex items-center gap-2 text-2xl text-fire-300">
        <Flag className="size-6" aria-hidden="true" />
        Passages
      </h3>
      {passages === undefined ? (
        <p className="mt-2 text-ash">
          {query.isPending
            ? 'Loading your passages...'
            : 'Your passages could not be loaded. They show here with a signal.'}
        </p>
      ) : passages.length === 0 ? (
        <p className="mt-2 text-ash">No stations passed yet. Each checkpoint that scans your code shows up here.</p>
      ) : (
        <ol className="mt-3 space-y-2">
          {passages.map((p, index) => (
            <li
              key={`${p.stationId}-${p.scannedAt}`}
              data-testid="passage"
              className={`grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 rounded-lg border bg-ink-950 px-3 py-2.5 sm:grid-cols-[auto_minmax(0,1fr)_auto] ${
                index === passages.length - 1 ? 'border-fire-500' : 'border-ink-700'
              }`}
            >
              <span className="row-span-2 flex size-9 shrink-0 sm:row-span-1 items-center justify-center rounded-full bg-fire-500 font-display text-lg text-ink-950">
                {index + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-1.5 font-bold wrap-anywhere text-bone">
                  <MapPin className="size-4 shrink-0 text-fire-400" aria-hidden="true" />
                  {p.stationName}
                </p>
                <p className="text-xs font-bold uppercase tracking-wide text-gold-300">{kindLabel(p.kind)}</p>
              </div>
              {/* Under the station on a phone, at the right from sm. */}
              <time dateTime={p.scannedAt} className="col-start-2 text-sm text-ash sm:col-start-3 sm:text-right">
                {passageTime(p.scannedAt)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
