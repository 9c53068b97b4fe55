// The breach kit (DESIGN.md §12): for a window and a staff account or an address, every
// rider whose sensitive data was read, which fields, how often, first and last; and the same
// as CSV for the notice the National Privacy Commission and the riders must get in 72 hours.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Download, Search, Siren } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { toast } from '../../../../lib/toast';
import { exactTime, KindBadges } from '../../../my-profile/privacy/who-looked-kinds';
import { ConsoleTable, tdClass } from '../../components/console-table';
import { EmptyPanel, QueryStates } from '../../components/list-states';
import {
  type AffectedFilters,
  type DataAccessPerson,
  dataAccessKeys,
  downloadAffectedCsv,
  fetchAffected,
  manilaMoment,
} from './data-access-api';
import { DataAccessPersonPicker } from './data-access-person-picker';

/** A datetime-local value for `date` in Manila time ('2026-12-07T14:05'). */
function manilaInput(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().slice(0, 16);
}

function MomentField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <input
        id={id}
        type="datetime-local"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={inputStyles}
      />
    </div>
  );
}

type By = 'staff' | 'ip';

export function BreachKit() {
  const ipId = useId();
  const [from, setFrom] = useState(() => manilaInput(new Date(Date.now() - 24 * 3_600_000)));
  const [to, setTo] = useState(() => manilaInput(new Date(Date.now() + 60_000)));
  const [by, setBy] = useState<By>('staff');
  const [staff, setStaff] = useState<DataAccessPerson | null>(null);
  const [ip, setIp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<AffectedFilters | null>(null);

  const affected = useQuery({
    queryKey: dataAccessKeys.affected(asked ?? { from: '', to: '' }),
    queryFn: () => fetchAffected(asked as AffectedFilters),
    enabled: asked !== null,
  });
  const download = useMutation({
    mutationFn: downloadAffectedCsv,
    onSuccess: (file) => toast.success(`Downloaded ${file.fileName}`),
    onError: (e) => toast.error(e.message || 'Download failed'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = manilaMoment(from);
    const end = manilaMoment(to);
    if (!start || !end) return setError('Give the start and the end of the window.');
    if (Date.parse(start) > Date.parse(end)) return setError('The start must not be after the end.');
    setError(null);
    setAsked({
      from: start,
      to: end,
      staffId: by === 'staff' ? staff?.id : undefined,
      ip: by === 'ip' && ip.trim() ? ip.trim() : undefined,
    });
  };

  return (
    <section aria-labelledby="breach-kit-heading" data-testid="breach-kit" className="grid gap-4">
      <div>
        <h3 id="breach-kit-heading" className="flex items-center gap-2 text-2xl text-fire-300">
          <Siren className="size-6 shrink-0" aria-hidden="true" />
          Breach kit
        </h3>
        <p className="mt-1 max-w-3xl text-sm text-ash">
          A lost phone, a shared password, a leaked spreadsheet: name the window and the staff account or the address it
          came from, and see every rider whose sensitive data was read.{' '}
          <strong className="text-bone">
            The National Privacy Commission and the riders affected must be told within 72 hours
          </strong>{' '}
          of knowing of a breach that puts them at real risk (NPC Circular 16-03). The CSV is the list to notify and
          what each one lost.
        </p>
      </div>
      <form onSubmit={submit} noValidate className="grid gap-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <MomentField label="From (Manila time)" value={from} onChange={setFrom} />
          <MomentField label="To (Manila time)" value={to} onChange={setTo} />
        </div>
        <fieldset className="grid gap-3">
          <legend className={labelStyles}>Read by</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {(
              [
                ['staff', 'A staff account'],
                ['ip', 'An IP address'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex min-h-11 items-center gap-2 text-bone">
                <input
                  type="radio"
                  name="breach-by"
                  value={value}
                  checked={by === value}
                  onChange={() => setBy(value)}
                  className="size-5 accent-fire-500"
                />
                {label}
              </label>
            ))}
          </div>
          {by === 'staff' ? (
            <DataAccessPersonPicker who="staff" label="Staff account" value={staff} onChange={setStaff} />
          ) : (
            <div>
              <label htmlFor={ipId} className={labelStyles}>
                IP address
              </label>
              <input
                id={ipId}
                value={ip}
                onChange={(e) => setIp(e.target.value)}
                maxLength={64}
                inputMode="text"
                placeholder="203.0.113.7"
                className={inputStyles}
              />
            </div>
          )}
          {(by === 'staff' ? staff === null : ip.trim() === '') && (
            <p className="text-sm text-smoke">Leave it empty for every read in the window.</p>
          )}
        </fieldset>
        {error && (
          <p role="alert" className="text-sm font-bold text-ember-400">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className={buttonStyles('primary', 'md', 'w-full sm:w-auto')}>
            <Search className="size-4" aria-hidden="true" />
            Find affected riders
          </button>
        </div>
      </form>
      {asked && (
        <QueryStates query={affected} loadingLabel="Finding affected riders..." errorMessage="The search failed">
          {(riders) =>
            riders.length === 0 ? (
              <EmptyPanel message="No rider’s sensitive data was read in this window." />
            ) : (
              <div className="grid gap-3">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="text-bone" aria-live="polite" data-testid="breach-count">
                    <strong>{riders.length}</strong> {riders.length === 1 ? 'rider' : 'riders'} affected
                  </p>
                  <button
                    type="button"
                    onClick={() => download.mutate(asked)}
                    disabled={download.isPending}
                    className={buttonStyles('secondary', 'md', 'w-full sm:w-auto')}
                  >
                    <Download className="size-4" aria-hidden="true" />
                    {download.isPending ? 'Preparing…' : 'Download CSV for the 72-hour notice'}
                  </button>
                </div>
                <ConsoleTable
                  headers={['Rider', 'Email', 'Fields', 'Reads', 'First read', 'Last read']}
                  minWidth="sm:min-w-[900px]"
                  stackOnPhone
                >
                  {riders.map((r) => (
                    <tr key={r.riderId} data-testid="breach-rider" className="bg-ink-900">
                      <td data-label="Rider" className={`${tdClass} font-bold wrap-anywhere text-bone`}>
                        {r.name}
                      </td>
                      <td data-label="Email" className={`${tdClass} wrap-anywhere text-ash`}>
                        {r.email ?? '—'}
                      </td>
                      <td data-label="Fields" className={tdClass}>
                        <KindBadges kinds={r.fields} />
                      </td>
                      <td data-label="Reads" className={tdClass}>
                        <span className="font-display text-lg text-bone">{r.reads}</span>
                      </td>
                      <td data-label="First read" className={`${tdClass} text-ash`}>
                        {exactTime(r.firstAt)}
                      </td>
                      <td data-label="Last read" className={`${tdClass} text-ash`}>
                        {exactTime(r.lastAt)}
                      </td>
                    </tr>
                  ))}
                </ConsoleTable>
              </div>
            )
          }
        </QueryStates>
      )}
    </section>
  );
}
