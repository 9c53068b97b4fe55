// My Profile → Privacy → "Who looked at your data" (DESIGN.md §12): every time a staff
// member's screen or export carried this rider's medical notes, emergency contact,
// birthdate, licence or position, newest first, in plain words.
import { useQuery } from '@tanstack/react-query';
import { Eye, FileSpreadsheet, Monitor } from 'lucide-react';
import { call, client } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import { exactTime, KindBadges } from './who-looked-kinds';
import { exportFormat, sourceLabel } from './who-looked-sources';

export const whoLookedKey = ['my', 'data-access'] as const;

async function fetchWhoLooked() {
  return (await call(client.GET('/api/my/data-access'))).data;
}

export function WhoLookedCard() {
  const query = useQuery({ queryKey: whoLookedKey, queryFn: fetchWhoLooked });
  const lines = query.data;
  return (
    <section aria-labelledby="who-looked-heading" data-testid="who-looked" className="w-full max-w-3xl">
      <h3 id="who-looked-heading" className="flex items-center gap-2 text-2xl text-fire-300">
        <Eye className="size-6 shrink-0" aria-hidden="true" />
        Who looked at your data
      </h3>
      <p className="mt-1 text-sm text-ash">
        Each time a staff member’s screen or spreadsheet showed your sensitive details, it is written down here: who,
        when, what and where.
      </p>
      {lines === undefined ? (
        query.isError ? (
          <div role="alert" className="mt-3 flex flex-wrap items-center gap-3 text-ash">
            <span>The list could not be loaded.</span>
            <button type="button" onClick={() => query.refetch()} className="font-bold text-fire-300 underline">
              Retry
            </button>
          </div>
        ) : (
          <p className="mt-3 text-ash">Loading who looked...</p>
        )
      ) : lines.length === 0 ? (
        <p
          data-testid="who-looked-empty"
          className="mt-3 rounded-lg border border-dashed border-ink-600 px-4 py-6 text-center text-ash"
        >
          No staff member has opened your medical notes, emergency contact, birthdate, licence or position.
        </p>
      ) : (
        <ol className="mt-3 space-y-2">
          {lines.map((line) => {
            const format = exportFormat(line.source);
            const Icon = format ? FileSpreadsheet : Monitor;
            return (
              <li
                key={line.id}
                data-testid="who-looked-line"
                className="grid gap-2 rounded-lg border border-ink-700 bg-ink-950 px-3 py-3"
              >
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                  <p className="font-bold wrap-anywhere text-bone" data-testid="who-looked-staff">
                    {line.staffName}
                  </p>
                  <p className="text-sm text-ash">
                    <time dateTime={line.at} title={exactTime(line.at)}>
                      {formatRelativeTime(line.at)}
                    </time>
                    <span className="text-smoke"> · {exactTime(line.at)}</span>
                  </p>
                </div>
                <KindBadges kinds={line.fields} />
                <p className="flex items-start gap-1.5 text-sm text-ash">
                  <Icon className="mt-0.5 size-4 shrink-0 text-fire-400" aria-hidden="true" />
                  <span className="wrap-anywhere" title={line.source}>
                    {sourceLabel(line.source)}
                    {format && <span className="text-smoke"> ({format})</span>}
                  </span>
                </p>
                {line.reason && (
                  <p className="text-sm wrap-anywhere text-ash">
                    <span className="font-bold text-bone">Reason given:</span> {line.reason}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
