// Event Day: the stations of the rally, in order day by day, and the review
// queue of flagged scans. Everyone with the tab sees both; manage_event edits stations and
// decides flagged scans; qr_scan roles get a way to the scanner.
import type { FlaggedScan } from '@rally/shared/contracts/scans';
import type { CreateStationRequest, Station } from '@rally/shared/contracts/stations';
import { can } from '@rally/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flag, MapPinned, Plus, ScanLine, ShieldAlert, Sprout } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { toast } from '../../../../lib/toast';
import { EmptyPanel, PagedResults, QueryStates } from '../../components/list-states';
import { RefreshButton } from '../../components/refresh-button';
import { SelectField } from '../../components/select-field';
import { TabHeading } from '../../components/tab-heading';
import { usePage } from '../../components/use-page';
import {
  createStation,
  deleteStation,
  eventDayKeys,
  flaggedScansQuery,
  type ReviewDecision,
  type ReviewState,
  reorderStations,
  reviewScan,
  seedDefaultStations,
  stationsQuery,
  updateStation,
} from '../api/event-day-api';
import { ControlBoard } from '../components/control-board';
import { IncidentsPanel } from '../components/incidents-panel';
import { ReviewQueueList } from '../components/review-queue-list';
import { RouteTracksPanel } from '../components/route-tracks-panel';
import { StationFormModal } from '../components/station-form-modal';
import { type StationAction, StationsTable } from '../components/stations-table';
import { TrackingPanel } from '../tracking/tracking-panel';

const REVIEW_FILTERS: ReadonlyArray<readonly [ReviewState, string]> = [
  ['open', 'Waiting for review'],
  ['reviewed', 'Reviewed'],
  ['all', 'All flagged scans'],
];

const MOVE_KEY = ['console', 'event-day', 'move-station'] as const;

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

function byDay(stations: Station[]): Array<[number, Station[]]> {
  const days = new Map<number, Station[]>();
  for (const s of stations) days.set(s.day, [...(days.get(s.day) ?? []), s]);
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, list]) => [day, [...list].sort((a, b) => a.order - b.order)]);
}

export default function EventDayTab() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const canManage = can(user?.role, 'manage_event');
  const canScan = can(user?.role, 'qr_scan');
  const stations = useQuery(stationsQuery());
  const refreshing = stations.isFetching;

  return (
    <section>
      <TabHeading
        title="Event Day"
        icon={Flag}
        actions={
          <div className="flex flex-wrap gap-2">
            {canScan && (
              <Link to="/scan" className={buttonStyles('primary')}>
                <ScanLine className="size-5" aria-hidden="true" />
                Open Scanner
              </Link>
            )}
            <RefreshButton
              fetching={refreshing}
              onRefresh={() => queryClient.invalidateQueries({ queryKey: eventDayKeys.all })}
            />
          </div>
        }
      />
      <IncidentsPanel />
      {/* Live positions are for those who handle incidents only (DESIGN.md §11). */}
      {can(user?.role, 'handle_incidents') && <TrackingPanel />}
      <ControlBoard canManage={canManage} />
      <StationsSection query={stations} canManage={canManage} />
      {canManage && <RouteTracksPanel />}
      <ReviewQueueSection canReview={canManage} />
    </section>
  );
}

function StationsSection({ query, canManage }: { query: ReturnType<typeof useQuery<Station[]>>; canManage: boolean }) {
  const queryClient = useQueryClient();
  // undefined: the form is closed; null: creating; a station: editing it.
  const [editing, setEditing] = useState<Station | null | undefined>(undefined);
  const [formProblem, setFormProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [moved, setMoved] = useState('');
  // The moved station's button to focus once the new order is on screen.
  const focusAfterMove = useRef<{ id: string; action: StationAction } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: eventDayKeys.stations });

  useEffect(() => {
    const wanted = focusAfterMove.current;
    if (!wanted || !query.data) return;
    focusAfterMove.current = null;
    // At the top or bottom its own button is disabled, so the other one takes the focus.
    const mine = document.querySelector<HTMLButtonElement>(`[data-move="${wanted.id}:${wanted.action}"]`);
    const other = document.querySelector<HTMLButtonElement>(
      `[data-move="${wanted.id}:${wanted.action === 'up' ? 'down' : 'up'}"]`,
    );
    (mine && !mine.disabled ? mine : other)?.focus();
  }, [query.data]);

  const save = useMutation({
    mutationFn: ({
      station,
      body,
    }: {
      station: Station | null;
      body: CreateStationRequest | Partial<CreateStationRequest>;
    }) => (station ? updateStation(station.id, body) : createStation(body as CreateStationRequest)),
    onSuccess: (saved, { station }) => {
      toast.success(station ? `Station ${saved.name} saved` : `Station ${saved.name} created`);
      setEditing(undefined);
    },
    onError: (error) => setFormProblem(messageOf(error, 'Failed to save the station')),
    onSettled: refresh,
  });

  const change = useMutation({
    mutationFn: async ({ station, action }: { station: Station; action: 'toggle-closed' | 'delete' }) => {
      if (action === 'toggle-closed') await updateStation(station.id, { closed: !station.closed });
      else await deleteStation(station.id);
    },
    onSuccess: (_, { station, action }) => {
      setNotice(null);
      toast.success(
        action === 'delete' ? `${station.name} deleted` : `${station.name} ${station.closed ? 'reopened' : 'closed'}`,
      );
    },
    // A station with scans cannot be deleted (409): the server's message says to close it.
    onError: (error) => setNotice({ tone: 'error', text: messageOf(error, 'Failed to update the station') }),
    onSettled: refresh,
  });

  // Moves are never refused while one is on its way (a keyboard user presses twice
  // quickly): each shows at once, they reach the server one after another (one mutation
  // scope), and the list is refetched once the last has landed.
  const move = useMutation({
    mutationKey: MOVE_KEY,
    scope: { id: 'station-order' },
    onMutate: ({ station, order }) => {
      queryClient.setQueryData<Station[]>(eventDayKeys.stations, (list) =>
        list?.map((s) => (s.day === station.day && order.includes(s.id) ? { ...s, order: order.indexOf(s.id) } : s)),
      );
    },
    mutationFn: ({ station, order }: { station: Station; order: string[] }) => reorderStations(station.day, order),
    onSuccess: (_, { station, order }) => {
      setNotice(null);
      setMoved(`${station.name} moved to position ${order.indexOf(station.id) + 1} of day ${station.day}`);
    },
    onError: (error) => setNotice({ tone: 'error', text: messageOf(error, 'Failed to move the station') }),
    onSettled: () => {
      if (queryClient.isMutating({ mutationKey: MOVE_KEY }) <= 1) void refresh();
    },
  });

  const seed = useMutation({
    mutationFn: seedDefaultStations,
    onSuccess: (list) => toast.success(`${list.length} default stations added`),
    onError: (error) => setNotice({ tone: 'error', text: messageOf(error, 'Failed to seed the default stations') }),
    onSettled: refresh,
  });

  const onAction = (station: Station, action: StationAction, dayStations: Station[]) => {
    if (action === 'edit') {
      setFormProblem(null);
      setEditing(station);
      return;
    }
    if (action === 'delete') {
      if (!window.confirm(`Delete the station ${station.name}? A station with scans can only be closed.`)) return;
      change.mutate({ station, action });
      return;
    }
    if (action === 'toggle-closed') {
      change.mutate({ station, action });
      return;
    }
    // From the list on screen, which already shows any move still on its way.
    const ids = dayStations.map((s) => s.id);
    const from = ids.indexOf(station.id);
    const to = action === 'up' ? from - 1 : from + 1;
    const other = ids[to];
    if (from < 0 || other === undefined) return;
    ids[to] = station.id;
    ids[from] = other;
    focusAfterMove.current = { id: station.id, action };
    move.mutate({ station, order: ids });
  };

  const lastDay = query.data?.reduce((max, s) => Math.max(max, s.day), 1) ?? 1;

  return (
    <section aria-labelledby="stations-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="stations-heading" className="flex items-center gap-2 text-2xl text-bone">
          <MapPinned className="size-6 text-fire-400" aria-hidden="true" />
          Stations
        </h3>
        {canManage && (
          <button
            type="button"
            className={buttonStyles('secondary')}
            onClick={() => {
              setFormProblem(null);
              setEditing(null);
            }}
          >
            <Plus className="size-5" aria-hidden="true" />
            New Station
          </button>
        )}
      </div>
      {!canManage && (
        <p className="text-sm text-ash">Read only: stations are set up by organisers with event management access.</p>
      )}
      {notice && (
        <p
          role="alert"
          data-testid="stations-notice"
          className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 font-bold text-ember-400"
        >
          {notice.text}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {moved}
      </p>
      <QueryStates query={query} loadingLabel="Loading stations..." errorMessage="Failed to load stations">
        {(list) =>
          list.length === 0 ? (
            <div className="flex flex-col items-center gap-4 rounded-lg border border-dashed border-ink-600 px-4 py-10 text-center">
              <p className="text-ash">No stations yet.</p>
              {canManage && (
                <button
                  type="button"
                  className={buttonStyles('primary')}
                  disabled={seed.isPending}
                  onClick={() => seed.mutate()}
                >
                  <Sprout className="size-5" aria-hidden="true" />
                  {seed.isPending ? 'Seeding...' : 'Seed Default Stations'}
                </button>
              )}
            </div>
          ) : (
            <div className="space-y-5">
              {byDay(list).map(([day, dayStations]) => (
                <section key={day} aria-label={`Day ${day} stations`} data-testid="station-day" data-day={day}>
                  <h4 className="mb-2 font-display text-xl tracking-wider text-fire-300 uppercase">
                    Day {day}
                    <span className="ml-2 font-sans text-sm tracking-normal text-ash normal-case">
                      {dayStations.length} {dayStations.length === 1 ? 'station' : 'stations'}
                    </span>
                  </h4>
                  <StationsTable
                    day={day}
                    stations={dayStations}
                    canManage={canManage}
                    busy={change.isPending}
                    onAction={(station, action) => onAction(station, action, dayStations)}
                  />
                </section>
              ))}
            </div>
          )
        }
      </QueryStates>
      <StationFormModal
        editing={editing}
        defaultDay={lastDay}
        saving={save.isPending}
        serverProblem={formProblem}
        onSave={(body) => {
          setFormProblem(null);
          save.mutate({ station: editing ?? null, body });
        }}
        onClose={() => setEditing(undefined)}
      />
    </section>
  );
}

function ReviewQueueSection({ canReview }: { canReview: boolean }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<ReviewState>('open');
  const { page, setPage, resetting } = usePage();
  const query = useQuery({ ...flaggedScansQuery(state, page), placeholderData: keepPreviousData });

  const review = useMutation({
    mutationFn: ({ scan, decision, note }: { scan: FlaggedScan; decision: ReviewDecision; note: string }) =>
      reviewScan(scan.id, decision, note),
    onSuccess: (_, { decision }) => toast.success(decision === 'accept' ? 'Scan accepted' : 'Scan voided'),
    onError: (error) => toast.error(messageOf(error, 'Failed to review the scan')),
    // An accepted scan counts at its station, so the stations' counts change too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventDayKeys.all }),
  });

  return (
    <section aria-labelledby="review-heading" className="mt-10 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id="review-heading" className="flex items-center gap-2 text-2xl text-bone">
          <ShieldAlert className="size-6 text-gold-300" aria-hidden="true" />
          Flagged Scans
        </h3>
        <SelectField
          label="Show"
          value={state}
          onChange={resetting(setState)}
          options={REVIEW_FILTERS}
          className="w-full sm:w-64"
        />
      </div>
      <p className="text-sm text-ash">
        Doubtful scans are kept, never dropped. Accepting one counts it as a passage; voiding it keeps it on record
        only. Both need a reason and are logged.
      </p>
      {query.error instanceof ApiError && query.error.status === 403 ? (
        <EmptyPanel message="Your role cannot see the review queue." />
      ) : (
        <QueryStates query={query} loadingLabel="Loading flagged scans..." errorMessage="Failed to load flagged scans">
          {(data) => (
            <PagedResults
              shown={data.scans.length}
              total={data.pagination.total}
              noun="flagged scans"
              emptyMessage={state === 'open' ? 'No flagged scans waiting. All clear, warrior.' : 'No flagged scans.'}
              pagination={{
                page: data.pagination.page,
                totalPages: data.pagination.total_pages,
                onPage: setPage,
                label: 'Flagged scan pages',
              }}
            >
              <ReviewQueueList
                scans={data.scans}
                canReview={canReview}
                busyId={review.isPending ? (review.variables?.scan.id ?? null) : null}
                onReview={(scan, decision, note) => review.mutate({ scan, decision, note })}
              />
            </PagedResults>
          )}
        </QueryStates>
      )}
    </section>
  );
}
