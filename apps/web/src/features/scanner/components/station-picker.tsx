// Choosing where this phone records: once per station shift, remembered on the device.
import { STATION_KIND_LABELS } from '@rally/shared/catalog/event-day';
import type { Station } from '@rally/shared/contracts/stations';
import { MapPin } from 'lucide-react';
import { routesText } from '../../../lib/routes-text';

export function StationPicker({
  stations,
  onChoose,
  error,
}: {
  stations: Station[] | null;
  onChoose: (id: string) => void;
  error: string | null;
}) {
  if (stations === null) return <p className="text-lg text-ash">Loading stations…</p>;
  const open = stations.filter((s) => !s.closed);
  if (open.length === 0) {
    return (
      <p className="rounded-lg border-2 border-ember-600 bg-ink-900 p-4 text-lg text-bone">
        {error
          ? `The stations could not be loaded (${error}). Connect once to download them.`
          : 'No open station yet. Staff create stations in the console (Event Day).'}
      </p>
    );
  }
  const days = [...new Set(open.map((s) => s.day))];
  return (
    <div className="space-y-6">
      <h2 className="font-display text-3xl tracking-wider text-bone uppercase">Pick your station</h2>
      {days.map((day) => (
        <section key={day} aria-labelledby={`day-${day}`}>
          <h3 id={`day-${day}`} className="mb-2 font-display text-xl tracking-wider text-fire-400 uppercase">
            {`Day ${day}`}
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2">
            {open
              .filter((s) => s.day === day)
              .map((s) => (
                <li key={s.id}>
                  <button
                    type="button"
                    onClick={() => onChoose(s.id)}
                    className="flex min-h-20 w-full items-center gap-3 rounded-lg border-2 border-ink-600 bg-ink-900 p-4 text-left hover:border-fire-500 focus-visible:border-fire-500"
                  >
                    <MapPin className="size-8 shrink-0 text-fire-500" aria-hidden="true" />
                    <span>
                      <span className="block text-2xl font-black text-bone">{s.name}</span>
                      <span className="block text-base text-ash">
                        {`${STATION_KIND_LABELS[s.kind]} · ${routesText(s.routes)}`}
                      </span>
                      {/* Stations kept on the phone from before codes existed have none. */}
                      {s.code ? (
                        <span className="block text-base text-ash">
                          {'Code for texts: '}
                          <span className="font-mono font-bold text-gold-300" data-testid="station-code">
                            {s.code}
                          </span>
                        </span>
                      ) : null}
                    </span>
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
