// The board's tracking layer (handle_incidents): every tracked rider's last position on a
// map, live from the event stream; open tracker alerts (stopped, off route) with a Dismiss
// that asks why; and for the rider chosen on the map or in the list, their track, state,
// speed, battery, distance along the route and arrival at the next station.
import { TRACK_STATE_COLORS, TRACK_STATES, type TrackState } from '@rally/shared/catalog/tracking';
import type { TrackedRider } from '@rally/shared/contracts/tracking';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BatteryLow, Crosshair, LocateFixed, Satellite, Siren, X } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { useNow } from '../../../my-profile/lib/use-sos-queue';
import { sinceText } from '../../../my-profile/tracking/since-text';
import { ErrorPanel, LoadingPanel } from '../../components/list-states';
import { usePastEdition } from '../../components/past-edition-context';
import { incidentKeys } from '../api/incidents-api';
import { DismissAlertModal } from './dismiss-alert-modal';
import { dismissAlert, routeLinesQuery, trackingKeys, trackQuery } from './tracking-api';
import {
  batteryText,
  clockText,
  distanceText,
  riderName,
  riderTag,
  shownState,
  speedText,
  stateLabel,
} from './tracking-display';
import { useTrackedRiders } from './use-tracked-riders';

const TrackingMap = lazy(() => import('./tracking-map'));

const ALERT_LABEL = { stopped: 'Stopped', off_route: 'Off route' } as const;
// Who needs eyes first: alerts, then the states that may turn into one.
const STATE_ORDER: Record<TrackState, number> = {
  off_route: 0,
  stopped: 1,
  no_signal: 2,
  moving: 3,
  finished: 4,
  dnf: 5,
};

/** When the trouble began: a stop from its first still minute, not from when it turned into an alert. */
function alertSince(rider: TrackedRider): string {
  const since = rider.alert?.since ?? '';
  return rider.alert?.kind === 'stopped' && rider.stoppedSince ? rider.stoppedSince : since;
}

function StateBadge({ state }: { state: TrackState }) {
  return (
    <span className="inline-flex items-center gap-1.5 font-bold text-bone" data-state={state}>
      <svg viewBox="0 0 12 12" className="size-3 shrink-0" aria-hidden="true">
        <circle cx="6" cy="6" r="5.5" fill={TRACK_STATE_COLORS[state]} stroke="#f7f1e8" strokeWidth="1" />
      </svg>
      {stateLabel(state)}
    </span>
  );
}

/** Live only: a past edition's positions are not on the board (and are deleted after it). */
export function TrackingPanel() {
  return usePastEdition() === null ? <LiveTrackingPanel /> : null;
}

function LiveTrackingPanel() {
  const queryClient = useQueryClient();
  const riders = useTrackedRiders();
  const routes = useQuery(routeLinesQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState<TrackedRider | null>(null);
  const track = useQuery({ ...trackQuery(chosen ?? ''), enabled: chosen !== null });
  const now = useNow(true, 30_000);

  const shown = useMemo(
    () =>
      (riders.data ?? [])
        .map((rider) => ({ rider, state: shownState(rider, now) }))
        .sort(
          (a, b) =>
            Number(b.rider.alert !== null) - Number(a.rider.alert !== null) ||
            STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
            (a.rider.riderNumber ?? 9999) - (b.rider.riderNumber ?? 9999),
        ),
    [riders.data, now],
  );
  const alerts = shown.filter(({ rider }) => rider.alert !== null);
  const chosenRider = shown.find(({ rider }) => rider.userId === chosen) ?? null;

  const dismiss = useMutation({
    mutationFn: ({ rider, reason }: { rider: TrackedRider; reason: string }) =>
      dismissAlert(rider.alert?.incidentId ?? '', reason),
    onSuccess: (_, { rider }) => {
      toast.success(`Alert for ${riderTag(rider)} dismissed`);
      setDismissing(null);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: trackingKeys.riders });
      void queryClient.invalidateQueries({ queryKey: incidentKeys.all });
    },
  });

  return (
    <section aria-labelledby="tracking-board-heading" className="mb-10 space-y-4" data-testid="tracking-board">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="tracking-board-heading" className="flex items-center gap-2 text-2xl text-bone">
          <Satellite className="size-6 text-fire-400" aria-hidden="true" />
          Riders on the Road
          {riders.data && (
            <span className="font-sans text-sm whitespace-nowrap text-ash" data-testid="tracked-count">
              {riders.data.length} tracked
            </span>
          )}
        </h3>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Map legend" data-testid="tracking-legend">
          {TRACK_STATES.map((state) => (
            <li key={state}>
              <StateBadge state={state} />
            </li>
          ))}
        </ul>
      </div>

      {riders.isPending ? (
        <LoadingPanel label="Loading tracked riders..." />
      ) : riders.isError ? (
        <ErrorPanel
          message="Failed to load tracked riders"
          detail={riders.error.message}
          onRetry={() => void riders.refetch()}
        />
      ) : (
        <>
          {alerts.length > 0 && (
            <section aria-labelledby="tracker-alerts-heading" className="space-y-2" data-testid="tracker-alerts">
              <h4
                id="tracker-alerts-heading"
                className="flex items-center gap-2 font-display text-xl tracking-wider text-ember-400 uppercase"
              >
                <Siren className="size-5" aria-hidden="true" />
                Tracker alerts
                <span className="font-sans text-base">{alerts.length}</span>
              </h4>
              <ul className="grid gap-2 lg:grid-cols-2">
                {alerts.map(({ rider }) =>
                  rider.alert ? (
                    <li
                      key={rider.alert.incidentId}
                      data-testid="tracker-alert"
                      data-rider={riderTag(rider)}
                      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border-2 border-ember-600 bg-ember-700/15 px-3 py-2"
                    >
                      <div className="min-w-0">
                        <p className="font-display text-xl tracking-wide text-bone">
                          {riderTag(rider)} {riderName(rider)}
                        </p>
                        <p className="font-bold text-ember-400">
                          {ALERT_LABEL[rider.alert.kind]} since {clockText(alertSince(rider))} (
                          {sinceText(alertSince(rider), now)})
                        </p>
                      </div>
                      <div className="flex gap-2">
                        <button
                          type="button"
                          className={buttonStyles('ghost', 'md', 'px-3')}
                          onClick={() => setChosen(rider.userId)}
                          aria-label={`Show ${riderTag(rider)} on the map`}
                        >
                          <Crosshair className="size-5" aria-hidden="true" />
                          Show
                        </button>
                        <button
                          type="button"
                          className={buttonStyles('secondary', 'md', 'px-3')}
                          onClick={() => {
                            dismiss.reset();
                            setDismissing(rider);
                          }}
                        >
                          Dismiss
                        </button>
                      </div>
                    </li>
                  ) : null,
                )}
              </ul>
            </section>
          )}

          <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <div
              className="h-80 overflow-hidden rounded-xl border border-ink-700 sm:h-[28rem]"
              data-testid="tracking-map"
            >
              <Suspense fallback={<div className="size-full bg-ink-800" />}>
                <TrackingMap
                  riders={shown}
                  routes={routes.data ?? []}
                  track={chosen ? track.data : undefined}
                  chosen={chosen}
                  onChoose={setChosen}
                />
              </Suspense>
            </div>
            {chosenRider ? (
              <RiderDetails
                rider={chosenRider.rider}
                state={chosenRider.state}
                now={now}
                trackPoints={track.data?.length ?? null}
                onClose={() => setChosen(null)}
              />
            ) : (
              <p className="rounded-xl border border-dashed border-ink-600 p-4 text-ash">
                {shown.length === 0
                  ? 'No rider is tracked yet. Riders turn tracking on from their pass and scan its QR code with Traccar Client.'
                  : 'Choose a rider on the map or in the list to see their track, speed, battery and arrival at the next station.'}
              </p>
            )}
          </div>

          {shown.length > 0 && (
            <ul
              className="max-h-80 divide-y divide-ink-700 overflow-y-auto rounded-xl border border-ink-700"
              aria-label="Tracked riders"
              data-testid="tracked-riders"
            >
              {shown.map(({ rider, state }) => (
                <li key={rider.userId} data-testid="tracked-rider" data-rider={riderTag(rider)}>
                  <button
                    type="button"
                    onClick={() => setChosen(rider.userId)}
                    aria-pressed={rider.userId === chosen}
                    className="flex min-h-11 w-full flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-left hover:bg-ink-800 aria-pressed:bg-fire-500/10"
                  >
                    <span className="w-14 font-display text-lg text-fire-400">{riderTag(rider)}</span>
                    <span className="min-w-40 flex-1 font-bold wrap-anywhere text-bone">{riderName(rider)}</span>
                    <StateBadge state={state} />
                    {rider.lowBattery && (
                      <span className="inline-flex items-center gap-1 text-sm font-bold text-gold-300">
                        <BatteryLow className="size-4" aria-hidden="true" />
                        Low battery
                      </span>
                    )}
                    <span className="text-sm text-ash">
                      {rider.last ? sinceText(rider.last.at, now) : 'no position'}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      <DismissAlertModal
        rider={dismissing}
        busy={dismiss.isPending}
        problem={
          dismiss.error ? (dismiss.error instanceof ApiError ? dismiss.error.message : 'Failed to dismiss') : null
        }
        onDismiss={(reason) => dismissing && dismiss.mutate({ rider: dismissing, reason })}
        onClose={() => setDismissing(null)}
      />
    </section>
  );
}

function RiderDetails({
  rider,
  state,
  now,
  trackPoints,
  onClose,
}: {
  rider: TrackedRider;
  state: TrackState;
  now: number;
  trackPoints: number | null;
  onClose: () => void;
}) {
  const next = rider.nextStation;
  const rows: Array<[string, string | null]> = [
    ['Last position', rider.last ? `${sinceText(rider.last.at, now)} (${clockText(rider.last.at)})` : null],
    ['Speed', speedText(rider.last?.speed)],
    ['Moving speed', speedText(rider.movingSpeed)],
    ['Battery', batteryText(rider)],
    ['Along the route', distanceText(rider.alongM)],
    ['From the route', distanceText(rider.offRouteM)],
    [
      'Next station',
      next ? `${next.name}, ${distanceText(next.distanceM)}${next.eta ? `, ETA ${clockText(next.eta)}` : ''}` : null,
    ],
    ['Stopped since', rider.stoppedSince ? clockText(rider.stoppedSince) : null],
    ['Track', trackPoints === null ? 'Loading...' : `${trackPoints} positions`],
  ];
  return (
    <section
      aria-label={`${riderTag(rider)} ${riderName(rider)}`}
      data-testid="tracked-rider-details"
      className="rounded-xl border-2 border-fire-500 bg-ink-900 p-4"
    >
      <div className="flex items-start justify-between gap-2">
        <div>
          <p className="font-display text-2xl text-fire-400">{riderTag(rider)}</p>
          <p className="font-bold text-bone">{riderName(rider)}</p>
          <p className="mt-1">
            <StateBadge state={state} />
          </p>
        </div>
        <button type="button" onClick={onClose} className="rounded p-2 text-ash hover:bg-ink-800" aria-label="Close">
          <X className="size-5" aria-hidden="true" />
        </button>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([label, value]) =>
          value === null ? null : (
            <div key={label} className="contents">
              <dt className="text-ash">{label}</dt>
              <dd className="font-bold text-bone" data-testid={`detail-${label.toLowerCase().replaceAll(' ', '-')}`}>
                {value}
              </dd>
            </div>
          ),
        )}
      </dl>
      {rider.last && (
        <p className="mt-3 flex items-center gap-1 font-mono text-xs text-ash">
          <LocateFixed className="size-4" aria-hidden="true" />
          {rider.last.lat.toFixed(5)}, {rider.last.lng.toFixed(5)}
        </p>
      )}
    </section>
  );
}
