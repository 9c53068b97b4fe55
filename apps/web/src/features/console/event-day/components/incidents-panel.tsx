// The incident board of the Event Day tab: riders in trouble, open ones
// first, with the map of where they are. It is re-read whenever the live stream says an
// incident changed (and on every reconnection), never on a timer.
import { INCIDENT_KIND_LABELS, INCIDENT_KINDS, type IncidentKind } from '@rally/shared/catalog';
import type { Incident } from '@rally/shared/contracts/incidents';
import { can } from '@rally/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PhoneIncoming, Radio, Siren } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { useEventStream, useEventStreamStatus } from '../../../../lib/event-stream';
import { toast } from '../../../../lib/toast';
import { EmptyPanel, QueryStates } from '../../components/list-states';
import { SelectField } from '../../components/select-field';
import {
  acknowledgeIncident,
  assigneesQuery,
  assignIncident,
  incidentKeys,
  incidentsQuery,
  openIncident,
  resolveIncident,
} from '../api/incidents-api';
import { IncidentCard } from './incident-card';

const IncidentsMap = lazy(() => import('./incidents-map'));

type Filter = 'active' | 'resolved' | 'all';
const FILTERS: ReadonlyArray<readonly [Filter, string]> = [
  ['active', 'Open and in hand'],
  ['resolved', 'Resolved'],
  ['all', 'All incidents'],
];

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

export function IncidentsPanel() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const canHandle = can(user?.role, 'handle_incidents');
  const [filter, setFilter] = useState<Filter>('active');
  const [focus, setFocus] = useState<string | null>(null);
  const query = useQuery(incidentsQuery('all'));
  const assignees = useQuery({ ...assigneesQuery(), enabled: canHandle });
  const live = useEventStreamStatus();

  useEventStream((event) => {
    if (event.type === 'incident' || event.type === 'open') {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.all });
    }
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: incidentKeys.all });
  const act = useMutation({
    mutationFn: async (
      a: { id: string } & ({ kind: 'ack' } | { kind: 'assign'; userId: string } | { kind: 'resolve'; note: string }),
    ) => {
      if (a.kind === 'ack') return acknowledgeIncident(a.id);
      if (a.kind === 'assign') return assignIncident(a.id, a.userId);
      return resolveIncident(a.id, a.note);
    },
    onSuccess: (_, a) =>
      toast.success(
        a.kind === 'ack' ? 'Incident acknowledged' : a.kind === 'assign' ? 'Incident assigned' : 'Incident resolved',
      ),
    onError: (error) => toast.error(messageOf(error, 'Failed to update the incident')),
    onSettled: refresh,
  });

  const shown = (list: Incident[]) =>
    list.filter((i) =>
      filter === 'all' ? true : filter === 'resolved' ? i.status === 'resolved' : i.status !== 'resolved',
    );

  return (
    <section aria-labelledby="incidents-heading" className="mb-10 space-y-4" data-testid="incidents-panel">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id="incidents-heading" className="flex items-center gap-2 text-2xl text-bone">
          <Siren className="size-6 text-ember-400" aria-hidden="true" />
          Incidents
          <span
            className={`ml-1 inline-flex items-center gap-1 rounded-full px-2 py-0.5 font-sans text-xs font-bold ${
              live === 'live' ? 'bg-green-500/15 text-green-300' : 'bg-ink-800 text-ash'
            }`}
            data-testid="stream-status"
          >
            <Radio className="size-3" aria-hidden="true" />
            {live === 'live' ? 'Live' : live === 'down' ? 'Reconnecting' : 'Connecting'}
          </span>
        </h3>
        <SelectField
          label="Which incidents"
          value={filter}
          onChange={setFilter}
          options={FILTERS}
          className="w-full sm:w-64"
        />
      </div>
      {canHandle && <PhonedInForm onOpened={refresh} />}
      <QueryStates query={query} loadingLabel="Loading incidents..." errorMessage="Failed to load incidents">
        {(all) => {
          const list = shown(all);
          const active = all.filter((i) => i.status !== 'resolved');
          const onMap = (filter === 'active' ? active : list).filter((i) => i.position);
          return (
            <div className="space-y-4">
              {onMap.length > 0 && (
                <div
                  className="h-64 overflow-hidden rounded-xl border border-ink-700 sm:h-80"
                  data-testid="incidents-map"
                >
                  <Suspense fallback={<div className="size-full bg-ink-800" />}>
                    <IncidentsMap incidents={onMap} focus={focus} />
                  </Suspense>
                </div>
              )}
              {list.length === 0 ? (
                <EmptyPanel
                  message={filter === 'active' ? 'No rider in trouble. All clear, warrior.' : 'No incidents.'}
                />
              ) : (
                <div className="grid gap-3 lg:grid-cols-2">
                  {list.map((incident) => (
                    <IncidentCard
                      key={incident.id}
                      incident={incident}
                      actions={{
                        canHandle,
                        busy: act.isPending && act.variables?.id === incident.id,
                        assignees: assignees.data ?? [],
                        onAcknowledge: () => act.mutate({ id: incident.id, kind: 'ack' }),
                        onAssign: (userId) => act.mutate({ id: incident.id, kind: 'assign', userId }),
                        onResolve: (note) => act.mutate({ id: incident.id, kind: 'resolve', note }),
                        onShowOnMap: () => setFocus(incident.id),
                      }}
                    />
                  ))}
                </div>
              )}
            </div>
          );
        }}
      </QueryStates>
    </section>
  );
}

/** A rider phoned the hotline: staff open the incident for them. */
function PhonedInForm({ onOpened }: { onOpened: () => void }) {
  const [open, setOpen] = useState(false);
  const [riderNumber, setRiderNumber] = useState('');
  const [kind, setKind] = useState<IncidentKind>('crash');
  const [note, setNote] = useState('');
  const numberId = useId();
  const noteId = useId();
  const create = useMutation({
    mutationFn: () =>
      openIncident({
        riderNumber: Number(riderNumber),
        kind,
        ...(note.trim() ? { note: note.replace(/\s+/g, ' ').trim() } : {}),
      }),
    onSuccess: (incident) => {
      toast.success(`Incident opened for rider #${incident.rider.riderNumber ?? ''}`);
      setOpen(false);
      setRiderNumber('');
      setNote('');
      onOpened();
    },
    onError: (error) => toast.error(messageOf(error, 'Failed to open the incident')),
  });
  if (!open) {
    return (
      <button type="button" className={buttonStyles('secondary')} onClick={() => setOpen(true)}>
        <PhoneIncoming className="size-5" aria-hidden="true" />
        Rider called in
      </button>
    );
  }
  return (
    <form
      className="grid gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4 sm:grid-cols-[8rem_12rem_1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <div>
        <label htmlFor={numberId} className={labelStyles}>
          Rider #
        </label>
        <input
          id={numberId}
          inputMode="numeric"
          required
          pattern="[0-9]{1,4}"
          value={riderNumber}
          onChange={(e) => setRiderNumber(e.target.value.replace(/\D/g, ''))}
          className={inputStyles}
        />
      </div>
      <SelectField
        label="What happened"
        value={kind}
        onChange={setKind}
        options={INCIDENT_KINDS.map((k) => [k, INCIDENT_KIND_LABELS[k]] as const)}
      />
      <div>
        <label htmlFor={noteId} className={labelStyles}>
          Note
        </label>
        <input id={noteId} value={note} onChange={(e) => setNote(e.target.value)} className={inputStyles} />
      </div>
      <div className="flex gap-2">
        <button type="submit" className={buttonStyles('primary')} disabled={create.isPending || !riderNumber}>
          Open
        </button>
        <button type="button" className={buttonStyles('ghost')} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
