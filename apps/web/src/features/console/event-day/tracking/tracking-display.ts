// How a tracked rider reads on the board: the state shown (a silent phone turns "no signal"
// on screen without waiting for the server to say so), speed, battery and distances in the
// units a marshal says aloud.
import { NO_SIGNAL_AFTER_MS, TRACK_STATE_LABELS, type TrackState } from '@rally/shared/catalog/tracking';
import type { TrackedRider } from '@rally/shared/contracts/tracking';

/** Short words printed on the marker under the number: colour is never the only signal. */
export const TRACK_STATE_SHORT: Record<TrackState, string> = {
  moving: 'GO',
  stopped: 'STOP',
  no_signal: 'NO SIG',
  off_route: 'OFF',
  finished: 'FIN',
  dnf: 'DNF',
};

export function shownState(rider: Pick<TrackedRider, 'state' | 'last'>, now: number): TrackState {
  if (rider.state === 'finished' || rider.state === 'dnf' || !rider.last) return rider.state;
  return now - Date.parse(rider.last.at) > NO_SIGNAL_AFTER_MS ? 'no_signal' : rider.state;
}

export const stateLabel = (state: TrackState) => TRACK_STATE_LABELS[state];

export function riderTag(rider: Pick<TrackedRider, 'riderNumber'>): string {
  return rider.riderNumber === null ? '#---' : `#${String(rider.riderNumber).padStart(3, '0')}`;
}

export function riderName(rider: Pick<TrackedRider, 'kitName' | 'firstName' | 'lastName'>): string {
  return rider.kitName || `${rider.firstName} ${rider.lastName}`.trim();
}

/** m/s to "42 km/h"; null when the phone gave none. */
export function speedText(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return `${Math.round(ms * 3.6)} km/h`;
}

export function distanceText(m: number | null | undefined): string | null {
  if (m === null || m === undefined || !Number.isFinite(m)) return null;
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(m < 10_000 ? 1 : 0)} km`;
}

export function batteryText(rider: Pick<TrackedRider, 'last' | 'lowBattery'>): string | null {
  const battery = rider.last?.battery;
  if (battery === null || battery === undefined) return null;
  return `${Math.round(battery)}%${rider.last?.charging ? ' charging' : ''}${rider.lowBattery ? ' (low)' : ''}`;
}

/** "10:42" in the console's local time. */
export function clockText(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-PH', { hour: '2-digit', minute: '2-digit', hour12: false });
}
