// While the rider pass is open and tracking is on, the phone's own position goes to the
// rally too (beside Traccar Client, or instead of it for a rider who never installed it):
// the Geolocation API's high-accuracy watch, thinned to one fix a minute or per 100 m, each
// written to the phone's queue (lib/offline/position-queue.ts) before it is sent.
import { useEffect, useRef, useState } from 'react';
import {
  pendingPositions,
  positionSyncState,
  positionsDelivered,
  type QueuedPosition,
  recordPosition,
  startPositionSync,
  subscribePositions,
  worthRecording,
} from '../../../lib/offline/position-queue';
import type { SyncState } from '../../../lib/offline/sync-loop';

export type OwnPositionState = 'off' | 'unsupported' | 'waiting' | 'on' | 'denied' | 'unavailable';

interface BatteryLike {
  level: number;
  charging: boolean;
}

/** Chromium's Battery Status API (not in TypeScript's DOM types, absent in Safari and Firefox). */
async function battery(): Promise<BatteryLike | null> {
  const nav = navigator as Navigator & { getBattery?: () => Promise<BatteryLike> };
  try {
    return nav.getBattery ? await nav.getBattery() : null;
  } catch {
    return null;
  }
}

const finite = (n: number | null | undefined): number | null =>
  typeof n === 'number' && Number.isFinite(n) ? n : null;

export function useOwnPosition(trackingId: string | null): { state: OwnPositionState; lastFixAt: string | null } {
  const [state, setState] = useState<OwnPositionState>('off');
  const [lastFixAt, setLastFixAt] = useState<string | null>(null);
  const kept = useRef<Pick<QueuedPosition, 'at' | 'lat' | 'lng'> | null>(null);

  useEffect(() => {
    if (!trackingId) {
      setState('off');
      return;
    }
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setState('unsupported');
      return;
    }
    setState('waiting');
    let alive = true;
    const watch = navigator.geolocation.watchPosition(
      (p) => {
        if (!alive) return;
        setState('on');
        const fix = {
          at: new Date(p.timestamp).toISOString(),
          lat: p.coords.latitude,
          lng: p.coords.longitude,
        };
        if (!worthRecording(kept.current, fix)) return;
        kept.current = fix;
        setLastFixAt(fix.at);
        void battery().then((b) =>
          recordPosition({
            trackingId,
            ...fix,
            speed: finite(p.coords.speed),
            bearing: finite(p.coords.heading),
            altitude: finite(p.coords.altitude),
            accuracy: finite(p.coords.accuracy),
            battery: b ? Math.round(b.level * 100) : null,
            charging: b ? b.charging : null,
          }),
        );
      },
      (error) => {
        if (!alive) return;
        setState(error.code === error.PERMISSION_DENIED ? 'denied' : 'unavailable');
      },
      // A fix up to 10 s old is as good as a new one at one a minute, and spares the GPS.
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    return () => {
      alive = false;
      navigator.geolocation.clearWatch(watch);
    };
  }, [trackingId]);

  return { state, lastFixAt };
}

export interface PositionQueueView {
  /** null until counted: never a made-up 0. */
  pending: number | null;
  sync: SyncState;
  /** Grows whenever this tab delivers positions (the screen then re-reads the last position). */
  delivered: number;
}

/** The positions of this tracking id still on the phone, kept current as they are queued and sent. */
export function usePositionQueue(trackingId: string | null): PositionQueueView {
  const [view, setView] = useState<PositionQueueView>(() => ({
    pending: null,
    sync: positionSyncState(),
    delivered: positionsDelivered(),
  }));
  useEffect(() => {
    if (!trackingId) return;
    let alive = true;
    const load = () =>
      void pendingPositions(trackingId).then((pending) => {
        if (alive) setView({ pending, sync: positionSyncState(), delivered: positionsDelivered() });
      });
    const stop = subscribePositions(load);
    load();
    // What an earlier visit left on the phone goes now.
    startPositionSync();
    return () => {
      alive = false;
      stop();
    };
  }, [trackingId]);
  return view;
}
