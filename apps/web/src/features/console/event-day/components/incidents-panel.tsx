// The incident board of the Event Day tab: riders in trouble, open ones
// first, with the map of where they are. It is re-read whenever the live stream says an
// incident changed (and on every reconnection), never on a timer. Every unresolved incident
// is listed (the server never cuts them); resolved ones come a page at a time. Calls of
// accounts marked as abuse are kept apart, below, and ring no alarm.
import { INCIDENT_KIND_LABELS, SOS_KINDS, type SosKind } from '@rally/shared/catalog/event-day';
import type { AbuseMarkedAccount, Incident } from '@rally/shared/contracts/incidents';
import { can } from '@rally/shared/permissions';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, BellOff, PhoneIncoming, Radio, Siren } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { useEventStream, useEventStreamStatus } from '../../../../lib/event-stream';
import { clockTime, staffTitle } from '../../../../lib/incident-display';
import { toast } from '../../../../lib/toast';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/list-states';
import { usePastEdition } from '../../components/past-edition-context';
import { SelectField } from '../../components/select-field';
import {
  abuseMarksQuery,
  acknowledgeIncident,
  assigneesQuery,
  assignIncident,
  boardQuery,
  incidentKeys,
  incidentQuery,
  liftAbuseMark,
  markAbuse,
  mutedIncidentsQuery,
  openIncident,
  resolveIncident,
} from '../api/incidents-api';
import { type IncidentActions, IncidentCard } from './incident-card';

const IncidentsMap = lazy(() => import('./incidents-map'));

type Filter = 'active' | 'resolved' | 'all';
const FILTERS: ReadonlyArray<readonly [Filter, string]> = [
  ['active', 'Open and in hand'],
  ['resolved', 'Resolved'],
  ['all', 'All incidents'],
];

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

type Act = { id: string } & (
  | { kind: 'ack' }
  | { kind: 'assign'; userId: string }
  | { kind: 'resolve'; note: string }
  | { kind: 'abuse'; note: string }
  | { kind: 'lift'; userId: string }
);

const DONE: Record<Act['kind'], string> = {
  ack: 'Incident acknowledged',
  assign: 'Incident assigned',
  resolve: 'Incident resolved',
  abuse: 'Calls marked as abuse',
  lift: 'Abuse mark lifted',
};

export function IncidentsPanel() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const canHandle = can(user?.role, 'handle_incidents');
  const [filter, setFilter] = useState<Filter>('active');
  const [focus, setFocus] = useState<string | null>(null);
  const board = useInfiniteQuery(boardQuery());
  const muted = useQuery(mutedIncidentsQuery());
  const marks = useQuery(abuseMarksQuery());
  const assignees = useQuery({ ...assigneesQuery(), enabled: canHandle });
  const live = useEventStreamStatus();
  // Today's calls change nothing of a past edition's incidents (the alarm still rings for them).
  const past = usePastEdition() !== null;

  useEventStream((event) => {
    if (past) return;
    // A call of an account marked as abuse changes only the list kept apart.
    if (event.type === 'incident' && event.data.muted === true) {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.muted });
    } else if (event.type === 'incident' || event.type === 'open') {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.all });
    }
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: incidentKeys.all });
  const act = useMutation({
    mutationFn: async (a: Act): Promise<string | undefined> => {
      if (a.kind === 'ack') await acknowledgeIncident(a.id);
      else if (a.kind === 'assign') await assignIncident(a.id, a.userId);
      else if (a.kind === 'resolve') await resolveIncident(a.id, a.note);
      else if (a.kind === 'abuse') return (await markAbuse(a.id, a.note)).message;
      else return liftAbuseMark(a.userId);
      return undefined;
    },
    onSuccess: (message, a) => toast.success(message ?? DONE[a.kind]),
    onError: (error) => toast.error(messageOf(error, 'Failed to update the incident')),
    onSettled: refresh,
  });

  const actionsFor = (incident: Incident): IncidentActions => ({
    canHandle,
    busy: act.isPending && act.variables?.id === incident.id,
    assignees: assignees.data ?? [],
    onAcknowledge: () => act.mutate({ id: incident.id, kind: 'ack' }),
    onAssign: (userId) => act.mutate({ id: incident.id, kind: 'assign', userId }),
    onResolve: (note) => act.mutate({ id: incident.id, kind: 'resolve', note }),
    onMarkAbuse: (note) => act.mutate({ id: incident.id, kind: 'abuse', note }),
    onLiftMark: () => act.mutate({ id: incident.id, kind: 'lift', userId: incident.rider.id }),
    onShowOnMap: () => setFocus(incident.id),
  });

  const shown = (list: Incident[]) =>
    list.filter((i) =>
      filter === 'all' ? true : filter === 'resolved' ? i.status === 'resolved' : i.status !== 'resolved',
    );

  const [params, setParams] = useSearchParams();
  const wanted = params.get('incident');
  const closeOpened = () =>
    setParams(
      (p) => {
        p.delete('incident');
        return p;
      },
      { replace: true },
    );

  const all = dedupe(board.data?.pages.flatMap((p) => p.data) ?? []);
  // The incident a notification's link named sits on top, and only there.
  const list = shown(all).filter((i) => i.id !== wanted);
  const active = all.filter((i) => i.status !== 'resolved');
  const onMap = (filter === 'active' ? active : list).filter((i) => i.position);
  const mutedOpen = (muted.data ?? []).filter((i) => i.status !== 'resolved' && i.id !== wanted);

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
      {wanted && <OpenedIncident id={wanted} actions={actionsFor} onClose={closeOpened} />}
      {canHandle && <PhonedInForm onOpened={refresh} />}
      {board.isPending ? (
        <LoadingPanel label="Loading incidents..." />
      ) : board.isError ? (
        <ErrorPanel
          message="Failed to load incidents"
          detail={board.error.message}
          onRetry={() => void board.refetch()}
        />
      ) : (
        <div className="space-y-4">
          {onMap.length > 0 && (
            <div className="h-64 overflow-hidden rounded-xl border border-ink-700 sm:h-80" data-testid="incidents-map">
              <Suspense fallback={<div className="size-full bg-ink-800" />}>
                <IncidentsMap incidents={onMap} focus={focus} />
              </Suspense>
            </div>
          )}
          {list.length === 0 ? (
            <EmptyPanel message={filter === 'active' ? 'No rider in trouble. All clear, warrior.' : 'No incidents.'} />
          ) : (
            <div className="grid gap-3 lg:grid-cols-2">
              {list.map((incident) => (
                <IncidentCard key={incident.id} incident={incident} actions={actionsFor(incident)} />
              ))}
            </div>
          )}
          {filter !== 'active' && board.hasNextPage && (
            <button
              type="button"
              className={buttonStyles('secondary')}
              disabled={board.isFetchingNextPage}
              onClick={() => void board.fetchNextPage()}
              data-testid="incidents-older"
            >
              {board.isFetchingNextPage ? 'Loading...' : 'Show older resolved incidents'}
            </button>
          )}
        </div>
      )}
      {((muted.data?.length ?? 0) > 0 || (marks.data?.length ?? 0) > 0) && (
        <details className="rounded-xl border border-ink-700 bg-ink-900 p-4" data-testid="incidents-muted">
          <summary className="flex cursor-pointer flex-wrap items-center gap-2 font-bold text-bone">
            <BellOff className="size-5 text-ash" aria-hidden="true" />
            Calls from accounts marked as abuse
            <span className="rounded-full bg-ink-800 px-2 py-0.5 text-sm text-ash">
              {mutedOpen.length} unresolved · {marks.data?.length ?? 0} marked
            </span>
          </summary>
          <p className="mt-2 text-sm text-ash">
            These calls were kept but raised no alarm. Read them: a wrongly marked rider may really need help.
          </p>
          {(muted.data?.length ?? 0) > 0 && (
            <div className="mt-3 grid gap-3 lg:grid-cols-2">
              {(muted.data ?? [])
                .filter((i) => i.id !== wanted)
                .map((incident) => (
                  <IncidentCard key={incident.id} incident={incident} actions={actionsFor(incident)} />
                ))}
            </div>
          )}
          {(marks.data?.length ?? 0) > 0 && (
            <MarkedAccounts
              marks={marks.data ?? []}
              canHandle={canHandle}
              busy={act.isPending}
              onLift={(m) => act.mutate({ id: m.incidentId ?? m.userId, kind: 'lift', userId: m.userId })}
            />
          )}
        </details>
      )}
    </section>
  );
}

/**
 * The incident a push or a text named (`?incident=`), resolved or kept apart too: shown first,
 * scrolled to and focused, with its messages open, until closed.
 */
function OpenedIncident({
  id,
  actions,
  onClose,
}: {
  id: string;
  actions: (incident: Incident) => IncidentActions;
  onClose: () => void;
}) {
  const query = useQuery(incidentQuery(id));
  const box = useRef<HTMLElement>(null);
  const shownOnce = useRef(false);
  useEffect(() => {
    if (!query.data || shownOnce.current || !box.current) return;
    shownOnce.current = true;
    box.current.scrollIntoView({ block: 'start' });
    box.current.focus({ preventScroll: true });
  }, [query.data]);
  return (
    <section
      ref={box}
      tabIndex={-1}
      aria-labelledby="opened-incident-heading"
      className="space-y-2 rounded-xl border-2 border-fire-500/60 bg-fire-500/5 p-3 outline-none focus-visible:ring-2 focus-visible:ring-fire-400"
      data-testid="opened-incident"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id="opened-incident-heading" className="text-xl text-fire-300">
          The incident you opened
        </h4>
        <button type="button" className={buttonStyles('ghost', 'md', 'px-3')} onClick={onClose}>
          Back to all incidents
        </button>
      </div>
      {query.isPending ? (
        <LoadingPanel label="Loading the incident..." />
      ) : query.isError ? (
        <ErrorPanel
          message={
            query.error instanceof ApiError && query.error.status === 404
              ? 'That incident was not found: it may belong to an account you cannot see.'
              : 'Failed to load the incident'
          }
          detail={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <IncidentCard incident={query.data} actions={actions(query.data)} opened />
      )}
    </section>
  );
}

/** The same incident can sit on two pages when it resolved between reads: keep it once. */
function dedupe(list: Incident[]): Incident[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    if (seen.has(i.id)) return false;
    seen.add(i.id);
    return true;
  });
}

/** The accounts marked as abuse, each with a Lift button (after a confirm). */
function MarkedAccounts({
  marks,
  canHandle,
  busy,
  onLift,
}: {
  marks: AbuseMarkedAccount[];
  canHandle: boolean;
  busy: boolean;
  onLift: (mark: AbuseMarkedAccount) => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  return (
    <section aria-label="Accounts marked as abuse" className="mt-4 space-y-2">
      <h4 className="font-bold text-bone">Accounts marked as abuse</h4>
      <ul className="divide-y divide-ink-700 rounded-lg border border-ink-700">
        {marks.map((m) => (
          <li key={m.userId} className="flex flex-wrap items-center gap-2 px-3 py-2" data-testid="abuse-mark">
            <span className="min-w-0 flex-1 wrap-anywhere text-bone">
              <Ban className="mr-1 inline size-4 text-gold-300" aria-hidden="true" />
              <span className="font-bold">
                #{m.riderNumber ?? '---'} {m.kitName ?? m.name}
              </span>
              <span className="block text-sm text-ash">
                {m.markedBy ? `${staffTitle(m.markedBy.name, m.markedBy.role)}, ` : ''}
                {clockTime(m.markedAt)}: {m.note}
              </span>
            </span>
            {canHandle &&
              (confirming === m.userId ? (
                <span className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className={buttonStyles('primary', 'md', 'px-3')}
                    disabled={busy}
                    onClick={() => {
                      onLift(m);
                      setConfirming(null);
                    }}
                  >
                    Lift: their calls ring again
                  </button>
                  <button
                    type="button"
                    className={buttonStyles('ghost', 'md', 'px-3')}
                    onClick={() => setConfirming(null)}
                  >
                    Cancel
                  </button>
                </span>
              ) : (
                <button
                  type="button"
                  className={buttonStyles('secondary', 'md', 'px-3')}
                  onClick={() => setConfirming(m.userId)}
                >
                  Lift mark...
                </button>
              ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A rider phoned the hotline: staff open the incident for them. */
function PhonedInForm({ onOpened }: { onOpened: () => void }) {
  const [open, setOpen] = useState(false);
  const [riderNumber, setRiderNumber] = useState('');
  const [kind, setKind] = useState<SosKind>('crash');
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
        options={SOS_KINDS.map((k) => [k, INCIDENT_KIND_LABELS[k]] as const)}
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
