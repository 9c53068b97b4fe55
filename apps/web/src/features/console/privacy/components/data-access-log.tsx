// The access log by rider or by staff member (view_logs): pick one (or none: every line),
// narrow by days, and page through the lines, newest first; on a phone each line is a card.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { formatRelativeTime } from '../../../../lib/format';
import { exactTime, KindBadges } from '../../../my-profile/privacy/who-looked-kinds';
import { exportFormat, sourceLabel } from '../../../my-profile/privacy/who-looked-sources';
import { ConsoleTable, tdClass } from '../../components/console-table';
import { PagedResults, QueryStates } from '../../components/list-states';
import {
  type DataAccessPerson,
  dataAccessKeys,
  fetchDataAccess,
  manilaDayBound,
  type PeopleKind,
} from './data-access-api';
import { DataAccessPersonPicker } from './data-access-person-picker';

const VIEWS: ReadonlyArray<readonly [PeopleKind, string]> = [
  ['riders', 'By rider'],
  ['staff', 'By staff member'],
];

function DayField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} className={inputStyles} />
    </div>
  );
}

export function DataAccessLog() {
  const [view, setView] = useState<PeopleKind>('riders');
  const [person, setPerson] = useState<DataAccessPerson | null>(null);
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const [page, setPage] = useState(1);
  const filters = {
    userId: view === 'riders' ? person?.id : undefined,
    staffId: view === 'staff' ? person?.id : undefined,
    from: manilaDayBound(fromDay, false),
    to: manilaDayBound(toDay, true),
    page,
  };
  const log = useQuery({
    queryKey: dataAccessKeys.log(filters),
    queryFn: () => fetchDataAccess(filters),
    placeholderData: keepPreviousData,
  });
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <div className="grid gap-4">
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Show the log</legend>
        {VIEWS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            aria-pressed={view === id}
            onClick={() => {
              setView(id);
              setPerson(null);
              setPage(1);
            }}
            className={`min-h-11 rounded-md border-2 px-4 font-display uppercase tracking-wider ${
              view === id ? 'border-fire-500 bg-fire-500 text-ink-950' : 'border-ink-600 text-ash hover:text-bone'
            }`}
          >
            {label}
          </button>
        ))}
      </fieldset>
      <div className="grid gap-3 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <DataAccessPersonPicker
          key={view}
          who={view}
          label={view === 'riders' ? 'Rider' : 'Staff member'}
          value={person}
          onChange={reset(setPerson)}
        />
        <DayField label="From" value={fromDay} onChange={reset(setFromDay)} />
        <DayField label="To" value={toDay} onChange={reset(setToDay)} />
      </div>
      <QueryStates
        query={log}
        loadingLabel="Loading the access log..."
        errorMessage="The access log could not be loaded"
      >
        {({ entries, pagination }) => (
          <PagedResults
            shown={entries.length}
            total={pagination.total}
            noun="reads"
            emptyMessage={
              person
                ? `Nothing logged for ${person.name}${fromDay || toDay ? ' in these days' : ''}.`
                : 'Nothing logged in these days.'
            }
            pagination={{
              page: pagination.page,
              totalPages: pagination.total_pages,
              onPage: setPage,
              label: 'Access log pages',
            }}
          >
            <ConsoleTable
              headers={['When', 'Rider', 'Staff member', 'What', 'Where', 'Reason']}
              minWidth="sm:min-w-[960px]"
              stackOnPhone
            >
              {entries.map((e) => {
                const format = exportFormat(e.source);
                return (
                  <tr key={e.id} data-testid="data-access-line" className="bg-ink-900">
                    <td data-label="When" className={`${tdClass} whitespace-nowrap`}>
                      <div>
                        <time dateTime={e.at} className="block text-bone">
                          {formatRelativeTime(e.at)}
                        </time>
                        <span className="block text-xs text-ash">{exactTime(e.at)}</span>
                      </div>
                    </td>
                    <td data-label="Rider" className={`${tdClass} wrap-anywhere text-bone`}>
                      {e.riderName}
                    </td>
                    <td data-label="Staff member" className={`${tdClass} wrap-anywhere text-bone`}>
                      {e.staffName}
                    </td>
                    <td data-label="What" className={tdClass}>
                      <KindBadges kinds={e.fields} />
                    </td>
                    <td data-label="Where" className={`${tdClass} wrap-anywhere text-ash`} title={e.source}>
                      {sourceLabel(e.source)}
                      {format && <span className="text-smoke"> ({format})</span>}
                    </td>
                    <td data-label="Reason" className={`${tdClass} wrap-anywhere text-ash`}>
                      {e.reason ?? <span className="text-smoke">—</span>}
                    </td>
                  </tr>
                );
              })}
            </ConsoleTable>
          </PagedResults>
        )}
      </QueryStates>
    </div>
  );
}
