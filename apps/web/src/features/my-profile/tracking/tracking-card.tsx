// The rider pass's tracking card (DESIGN.md §11): what tracking does in plain words, an
// opt-in that starts unticked, and once on, the QR that sets Traccar Client up in one scan,
// its three steps, the battery settings that would otherwise kill it, and the last position
// the rally received. While the pass is open the phone's own position goes too
// (use-own-position.ts), through the offline queue; what waits for a signal is counted here.
import { TRACKING_BATTERY_HINT, TRACKING_CONSENT_VERSION, TRACKING_SETUP_STEPS } from '@rally/shared/catalog/tracking';
import type { MyTracking } from '@rally/shared/contracts/tracking';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BatteryWarning, CloudUpload, LocateFixed, LocateOff, Satellite } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useOnline } from '../../../lib/offline/use-online';
import { toast } from '../../../lib/toast';
import { useNow } from '../lib/use-sos-queue';
import { sinceText, waitingText } from './since-text';
import { keepTracking, myTrackingKey, myTrackingQuery, putMyTracking } from './tracking-api';
import { TrackingConsent } from './tracking-consent';
import { type OwnPositionState, useOwnPosition, usePositionQueue } from './use-own-position';

const TrackingQr = lazy(() => import('./tracking-qr'));

export function TrackingCard({ userId }: { userId: string }) {
  const query = useQuery(myTrackingQuery(userId));
  const online = useOnline();
  // Not a verified entry (or no tracking module on this server): the pass shows no card.
  if (query.error instanceof ApiError && [403, 404].includes(query.error.status) && !query.data) return null;
  return (
    <section
      aria-labelledby="tracking-heading"
      data-testid="tracking-card"
      className="w-full max-w-3xl overflow-hidden rounded-2xl border-4 border-jade-400 bg-ink-950"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 bg-jade-400 px-4 py-2 text-ink-950">
        <h2 id="tracking-heading" className="flex items-center gap-2 font-display text-2xl tracking-widest">
          <Satellite className="size-6" aria-hidden="true" />
          LIVE TRACKING
        </h2>
        {query.data && (
          <span
            data-testid="tracking-status"
            className="rounded-full border-2 border-ink-950 px-3 py-0.5 text-sm font-black tracking-wider uppercase"
          >
            {query.data.enabled ? 'On' : 'Off'}
          </span>
        )}
      </div>
      <div className="p-4 sm:p-6">
        {query.data ? (
          query.data.enabled ? (
            <TrackingOn userId={userId} tracking={query.data} online={online} />
          ) : (
            <TrackingOff userId={userId} online={online} />
          )
        ) : query.isPending ? (
          <Spinner label="Loading your tracking..." className="py-6" />
        ) : (
          <p role="alert" className="font-bold text-gold-300">
            {online ? 'Failed to load your tracking.' : 'You are offline: your tracking shows once you have a signal.'}{' '}
            <button type="button" className="underline underline-offset-2" onClick={() => void query.refetch()}>
              Retry
            </button>
          </p>
        )}
      </div>
    </section>
  );
}

/** Turning tracking on or off, and what the server said back, for both halves of the card. */
function useSetTracking(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putMyTracking,
    onSuccess: (data: MyTracking) => {
      keepTracking(userId, data);
      queryClient.setQueryData(myTrackingKey(userId), data);
      toast.success(data.enabled ? 'Tracking is on. Ride safe, warrior!' : 'Tracking is off.');
    },
  });
}

function problemOf(error: unknown): string | null {
  if (!error) return null;
  return error instanceof ApiError ? error.message : 'Failed to reach the server. Try again when you have a signal.';
}

function TrackingOff({ userId, online }: { userId: string; online: boolean }) {
  const [agreed, setAgreed] = useState(false);
  const set = useSetTracking(userId);
  const problemId = useId();
  const problem = problemOf(set.error);
  return (
    <div className="grid gap-4">
      <p className="text-xl font-bold text-bone">
        Between stations nobody sees you. With tracking on, the safety team does.
      </p>
      <TrackingConsent agreed={agreed} onAgreed={setAgreed} />
      <button
        type="button"
        disabled={!agreed || !online || set.isPending}
        aria-describedby={problem ? problemId : undefined}
        onClick={() => set.mutate({ enabled: true, consentVersion: TRACKING_CONSENT_VERSION })}
        className={buttonStyles('primary', 'lg', 'w-full sm:w-auto sm:justify-self-start')}
      >
        <LocateFixed className="size-6" aria-hidden="true" />
        {set.isPending ? 'Turning on...' : 'Turn on tracking'}
      </button>
      {!online && <p className="text-sm text-ash">You are offline: turn tracking on once you have a signal.</p>}
      {problem && (
        <p id={problemId} role="alert" className="font-bold text-ember-400">
          {problem}
        </p>
      )}
    </div>
  );
}

const OWN_POSITION_TEXT: Record<OwnPositionState, string | null> = {
  off: null,
  waiting: 'This phone: finding your position...',
  on: 'This phone also sends its position while this pass is open.',
  denied: 'This phone: location is blocked for this site. Traccar Client still tracks you.',
  unavailable: 'This phone cannot find its position right now (no GPS fix). It keeps trying.',
  unsupported: null,
};

function TrackingOn({ userId, tracking, online }: { userId: string; tracking: MyTracking; online: boolean }) {
  const queryClient = useQueryClient();
  const set = useSetTracking(userId);
  const own = useOwnPosition(tracking.trackingId);
  const queue = usePositionQueue(tracking.trackingId);
  const now = useNow(true, 30_000);
  const problem = problemOf(set.error);

  // A batch delivered: the server's "last position" moved, read it again.
  const delivered = useRef(queue.delivered);
  useEffect(() => {
    if (queue.delivered === delivered.current) return;
    delivered.current = queue.delivered;
    void queryClient.invalidateQueries({ queryKey: myTrackingKey(userId) });
  }, [queue.delivered, queryClient, userId]);

  const last = tracking.lastPosition;
  const ownText = OWN_POSITION_TEXT[own.state];
  const manualUrl = tracking.setupUrl ? tracking.setupUrl.split('?')[0] : null;
  return (
    <div className="grid gap-5">
      <p
        data-testid="tracking-last"
        className={`flex items-center gap-2 text-xl font-bold ${last ? 'text-jade-400' : 'text-gold-300'}`}
      >
        <LocateFixed className="size-6 shrink-0" aria-hidden="true" />
        {last ? `Last position ${sinceText(last.at, now)}` : 'No position received yet'}
      </p>
      {(queue.pending ?? 0) > 0 && (
        <p
          role="status"
          data-testid="tracking-pending"
          className="flex items-center gap-2 rounded-lg border-2 border-gold-500 bg-gold-500/10 px-3 py-2 font-bold text-gold-300"
        >
          <CloudUpload className="size-5 shrink-0" aria-hidden="true" />
          {waitingText(queue.pending ?? 0)}
        </p>
      )}
      <div className="grid gap-5 sm:grid-cols-[auto_1fr] sm:items-start">
        <figure className="mx-auto flex flex-col items-center gap-2 sm:mx-0">
          <div className="rounded-xl bg-white p-2">
            <Suspense fallback={<div className="size-60 animate-pulse bg-ash/30" aria-hidden="true" />}>
              {tracking.setupUrl && <TrackingQr value={tracking.setupUrl} />}
            </Suspense>
          </div>
          <figcaption className="font-display text-lg tracking-wider text-jade-400">
            Scan with Traccar Client
          </figcaption>
        </figure>
        <div className="grid gap-4">
          <ol className="grid gap-3" data-testid="tracking-steps">
            {TRACKING_SETUP_STEPS.map((step, i) => (
              <li key={step} className="flex gap-3 text-lg text-bone">
                <span
                  aria-hidden="true"
                  className="flex size-8 shrink-0 items-center justify-center rounded-full bg-jade-400 font-display text-xl text-ink-950"
                >
                  {i + 1}
                </span>
                <span>{step}</span>
              </li>
            ))}
          </ol>
          <p className="flex gap-2 rounded-lg border-2 border-gold-500 bg-gold-500/10 p-3 text-gold-300">
            <BatteryWarning className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
            <span className="font-semibold">{TRACKING_BATTERY_HINT}</span>
          </p>
          {manualUrl && tracking.trackingId && (
            <details className="rounded-lg border border-ink-700 bg-ink-900 p-3 text-sm text-ash">
              <summary className="cursor-pointer font-bold text-bone">Only one phone? Enter it by hand</summary>
              <p className="mt-2">
                In Traccar Client set <strong className="text-bone">Server URL</strong> to{' '}
                <span className="font-mono break-all text-bone">{manualUrl}</span> and{' '}
                <strong className="text-bone">Device identifier</strong> to{' '}
                <span className="font-mono break-all text-bone">{tracking.trackingId}</span>. Keep this id to yourself.
              </p>
            </details>
          )}
        </div>
      </div>
      {ownText && (
        <p data-testid="tracking-own" className="flex items-center gap-2 text-sm text-ash">
          {own.state === 'denied' || own.state === 'unavailable' ? (
            <LocateOff className="size-5 shrink-0 text-gold-300" aria-hidden="true" />
          ) : (
            <LocateFixed className="size-5 shrink-0 text-jade-400" aria-hidden="true" />
          )}
          {ownText}
        </p>
      )}
      <div className="flex flex-col gap-2 border-t border-ink-700 pt-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ash">Turning it off stops it at once; the QR code then stops working.</p>
        <button
          type="button"
          disabled={!online || set.isPending}
          onClick={() => set.mutate({ enabled: false })}
          className={buttonStyles('secondary', 'md', 'shrink-0')}
        >
          <LocateOff className="size-5" aria-hidden="true" />
          {set.isPending ? 'Turning off...' : 'Turn off tracking'}
        </button>
      </div>
      {problem && (
        <p role="alert" className="font-bold text-ember-400">
          {problem}
        </p>
      )}
    </div>
  );
}
