import { STATION_KIND_LABELS } from '@rally/shared/catalog/event-day';
import type { Station } from '@rally/shared/contracts/stations';
import { ArrowDown, ArrowUp, Lock, LockOpen, Pencil, Trash2 } from 'lucide-react';
import { routesText } from '../../../../lib/routes-text';
import { ConsoleTable, type TableHeader } from '../../components/console-table';
import { formatEventTime } from './event-day-display';

const th = 'whitespace-nowrap px-2.5 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
const td = 'px-2.5 py-3 align-middle';
const READ_HEADERS: TableHeader[] = ['#', 'Station', 'Routes', 'Hours', 'Required', 'Status', 'Scans'];
const MANAGE_HEADERS: TableHeader[] = [...READ_HEADERS, 'Actions'];

export type StationAction = 'up' | 'down' | 'edit' | 'toggle-closed' | 'delete';

const iconButton =
  'flex size-10 items-center justify-center rounded-md border border-ink-600 text-ash transition-colors ' +
  'hover:border-fire-500 hover:text-fire-300 disabled:cursor-not-allowed disabled:opacity-40 ' +
  'disabled:hover:border-ink-600 disabled:hover:text-ash aria-disabled:cursor-wait';

/** One day's stations in their order; managers get move, edit, close and delete on each row. */
export function StationsTable({
  day,
  stations,
  canManage,
  busy,
  onAction,
}: {
  day: number;
  stations: Station[];
  canManage: boolean;
  busy: boolean;
  onAction: (station: Station, action: StationAction) => void;
}) {
  // While one change is on its way the buttons refuse clicks but stay enabled: disabling
  // the button that has the keyboard focus would drop the focus to the page.
  const act = (station: Station, action: StationAction) => {
    if (!busy) onAction(station, action);
  };
  return (
    <ConsoleTable
      headers={canManage ? MANAGE_HEADERS : READ_HEADERS}
      minWidth={canManage ? 'sm:min-w-[900px]' : 'sm:min-w-[700px]'}
      headerClassName={th}
      stackOnPhone
    >
      {stations.map((s, index) => (
        <tr
          key={s.id}
          className={`bg-ink-900 ${s.closed ? 'text-smoke' : ''}`}
          data-testid="station-row"
          data-station-id={s.id}
          data-day={day}
        >
          <td data-label="Order" className={`${td} font-display text-2xl text-fire-300`}>
            {index + 1}
          </td>
          <td className={td}>
            <div className="min-w-0">
              <p className="font-bold wrap-anywhere text-bone" data-testid="station-name">
                {s.name}
              </p>
              <p className="text-xs font-bold uppercase tracking-wide text-gold-300">
                <span
                  className="mr-1.5 rounded bg-ink-700 px-1.5 py-0.5 font-mono text-bone"
                  data-testid="station-code"
                  title="Code marshals text: code and rider numbers"
                >
                  {s.code}
                </span>
                {STATION_KIND_LABELS[s.kind]}
              </p>
            </div>
          </td>
          <td data-label="Routes" className={`${td} text-ash`}>
            {routesText(s.routes)}
          </td>
          <td data-label="Hours" className={`${td} text-sm text-ash`}>
            {s.opensAt || s.closesAt ? (
              <div>
                <p className="whitespace-nowrap">
                  <span className="text-smoke">Opens</span> {formatEventTime(s.opensAt)}
                </p>
                <p className="whitespace-nowrap">
                  <span className="text-smoke">Closes</span> {formatEventTime(s.closesAt)}
                </p>
              </div>
            ) : (
              'Always open'
            )}
          </td>
          <td data-label="Required" className={td}>
            {s.required ? (
              <span className="font-bold text-fire-300">Required</span>
            ) : (
              <span className="text-ash">No</span>
            )}
          </td>
          <td data-label="Status" className={td}>
            <span
              data-testid="station-status"
              className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-bold uppercase ${
                s.closed ? 'bg-ink-700 text-bone' : 'bg-jade-600 text-ink-950'
              }`}
            >
              {s.closed ? <Lock className="size-3.5" aria-hidden="true" /> : null}
              {s.closed ? 'Closed' : 'Open'}
            </span>
          </td>
          <td data-label="Scans" className={`${td} font-display text-xl text-bone`} data-testid="station-scans">
            {s.scanCount}
          </td>
          {canManage && (
            <td className={td}>
              <div className="flex flex-wrap items-center gap-1.5 sm:flex-nowrap">
                <button
                  type="button"
                  className={iconButton}
                  disabled={index === 0}
                  aria-disabled={busy || undefined}
                  onClick={() => act(s, 'up')}
                  data-move={`${s.id}:up`}
                  aria-label={`Move ${s.name} up`}
                  title="Move up"
                >
                  <ArrowUp className="size-5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButton}
                  disabled={index === stations.length - 1}
                  aria-disabled={busy || undefined}
                  onClick={() => act(s, 'down')}
                  data-move={`${s.id}:down`}
                  aria-label={`Move ${s.name} down`}
                  title="Move down"
                >
                  <ArrowDown className="size-5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButton}
                  aria-disabled={busy || undefined}
                  onClick={() => act(s, 'edit')}
                  aria-label={`Edit ${s.name}`}
                  title="Edit"
                >
                  <Pencil className="size-5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  className={iconButton}
                  aria-disabled={busy || undefined}
                  onClick={() => act(s, 'toggle-closed')}
                  aria-label={`${s.closed ? 'Reopen' : 'Close'} ${s.name}`}
                  title={s.closed ? 'Reopen' : 'Close'}
                >
                  {s.closed ? (
                    <LockOpen className="size-5" aria-hidden="true" />
                  ) : (
                    <Lock className="size-5" aria-hidden="true" />
                  )}
                </button>
                <button
                  type="button"
                  className={`${iconButton} hover:border-ember-500 hover:text-ember-400`}
                  aria-disabled={busy || undefined}
                  onClick={() => act(s, 'delete')}
                  aria-label={`Delete ${s.name}`}
                  title="Delete"
                >
                  <Trash2 className="size-5" aria-hidden="true" />
                </button>
              </div>
            </td>
          )}
        </tr>
      ))}
    </ConsoleTable>
  );
}
