// The marshal's working screen: station, sync state, verdict, camera, typed number, list.
import { STATION_KIND_LABELS } from '@rally/shared/catalog/event-day';
import { ArrowLeftRight, CloudOff } from 'lucide-react';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { type User, useAuth } from '../../../lib/auth';
import { resumeAfterSignIn, startScanSync, subscribeSync, syncNow, syncStatus } from '../../../lib/offline/scan-sync';
import { useOnline } from '../../../lib/offline/use-online';
import { useRoster } from '../hooks/use-roster';
import { useScanRecorder } from '../hooks/use-scan-recorder';
import { useStations } from '../hooks/use-stations';
import { parseQrText, type RiderToken } from '../lib/rider-token';
import { CameraPanel } from './camera-panel';
import { KitPanel } from './kit-panel';
import { ManualEntry } from './manual-entry';
import { RecentScans } from './recent-scans';
import { ScannerFrame } from './scanner-frame';
import { ScannerSignIn } from './scanner-sign-in';
import { StationPicker } from './station-picker';
import { SyncHeader } from './sync-header';
import { VerdictCard } from './verdict-card';

/** The camera sees the same sticker many times a second: one read per sticker presented. */
const CAMERA_REPEAT_MS = 2_000;

export function ScannerScreen({ user }: { user: User }) {
  const { isOfflineSession, logout } = useAuth();
  const online = useOnline();
  const status = useSyncExternalStore(subscribeSync, syncStatus, syncStatus);
  const stations = useStations(online);
  const roster = useRoster(online);
  const { shown, recent, record } = useScanRecorder({
    station: stations.station,
    stations: stations.stations ?? [],
    index: roster.index,
    userId: user.id,
  });

  useEffect(() => {
    startScanSync();
    // Signed in again after a session ended: what waited goes now.
    void syncNow();
  }, []);
  // A sync that ends may have new riders to go with it: the roster follows (a cheap delta).
  const lastSync = status.lastSyncAt;
  const refreshRoster = roster.refresh;
  useEffect(() => {
    if (lastSync) void refreshRoster();
  }, [lastSync, refreshRoster]);

  const lastCamera = useRef<{ text: string; at: number } | null>(null);
  const onCameraText = useCallback(
    (text: string) => {
      const now = Date.now();
      const last = lastCamera.current;
      lastCamera.current = { text, at: now };
      if (last && last.text === text && now - last.at < CAMERA_REPEAT_MS) return;
      const token = parseQrText(text);
      if (token) record(token, 'camera');
    },
    [record],
  );
  const onTyped = useCallback((token: RiderToken) => record(token, 'manual'), [record]);

  const signedOut = status.state.kind === 'signed-out' || roster.unauthorized || stations.unauthorized;
  const onSignedIn = () => {
    resumeAfterSignIn();
    void roster.refresh();
    void stations.refresh();
  };

  const station = stations.station;
  const shownRider = shown && shown.verdict.tone !== 'unknown' ? shown.verdict.rider : undefined;
  const photo = shownRider ? roster.photos.get(shownRider.id) : undefined;

  return (
    <ScannerFrame
      aside={
        <>
          <span className="hidden text-base text-ash sm:inline">{`${user.firstName} ${user.lastName}`}</span>
          <button
            type="button"
            onClick={logout}
            className="min-h-11 rounded-md px-3 text-base text-ash hover:bg-ink-800"
          >
            Sign out
          </button>
        </>
      }
    >
      <div className="space-y-4">
        <SyncHeader online={online} status={status} onSync={() => void syncNow()} rosterSize={roster.size} />
        {(isOfflineSession || !online) && (
          <p
            data-testid="offline-notice"
            className="flex items-center gap-2 rounded-lg border-2 border-gold-500 bg-ink-900 px-4 py-3 text-lg text-bone"
          >
            <CloudOff className="size-6 shrink-0 text-gold-400" aria-hidden="true" />
            Offline: scans are kept on this phone and sent when the signal returns.
            {roster.syncedAt ? ` Roster from ${new Date(roster.syncedAt).toLocaleString()}.` : ''}
          </p>
        )}
        {signedOut && (
          <div className="rounded-xl border-4 border-gold-400 bg-ink-900 p-4 sm:p-6" data-testid="sign-in-again">
            <ScannerSignIn
              heading="Sign in again to send your scans"
              note={
                status.pending === null
                  ? 'Your session has ended. Scans on this phone are sent once you sign in.'
                  : `Your session has ended. ${status.pending} scan${status.pending === 1 ? '' : 's'} wait on this phone and are sent once you sign in.`
              }
              onSignedIn={onSignedIn}
            />
          </div>
        )}
        {!station ? (
          <StationPicker stations={stations.stations} onChoose={stations.choose} error={stations.error} />
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-xl border-2 border-fire-600 bg-ink-900 px-4 py-3">
              <div className="min-w-0 basis-full sm:flex-1 sm:basis-auto">
                <p className="text-sm font-bold tracking-widest text-fire-400 uppercase">
                  {`Day ${station.day} · ${STATION_KIND_LABELS[station.kind]}`}
                </p>
                <h1
                  className="font-display text-3xl tracking-wide wrap-anywhere uppercase sm:text-4xl"
                  data-testid="station-name"
                >
                  {station.name}
                </h1>
              </div>
              <button
                type="button"
                onClick={() => stations.choose(null)}
                className="inline-flex min-h-12 items-center gap-2 rounded-md border-2 border-ink-600 px-4 text-lg font-bold text-bone hover:border-fire-500"
              >
                <ArrowLeftRight className="size-5" aria-hidden="true" />
                Change station
              </button>
            </div>
            {roster.loaded && roster.size === 0 && (
              <p className="rounded-lg border-2 border-ember-600 bg-ink-900 px-4 py-3 text-lg">
                No riders on this phone yet: connect once so the roster downloads. Scans are still recorded.
              </p>
            )}
            {/* Phone: camera, verdict, number, list, top to bottom. Wide screens: camera and
                number on the left, verdict and list on the right. */}
            <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
              <div className="lg:col-start-1 lg:row-start-1">
                <CameraPanel onText={onCameraText} />
              </div>
              <div className="space-y-4 lg:col-start-2 lg:row-span-3 lg:row-start-1">
                <VerdictCard shown={shown} photoUrl={photo} />
                {station.kind === 'kit' && shownRider && (
                  <KitPanel riderId={shownRider.id} user={user} online={online} />
                )}
                <div className="hidden lg:block">
                  <RecentScans scans={recent} index={roster.index} />
                </div>
              </div>
              <div className="lg:col-start-1 lg:row-start-2">
                <ManualEntry onToken={onTyped} />
              </div>
              <div className="lg:hidden">
                <RecentScans scans={recent} index={roster.index} />
              </div>
            </div>
          </>
        )}
      </div>
    </ScannerFrame>
  );
}
