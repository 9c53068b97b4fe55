// The verdict a marshal sees the moment a rider is scanned, computed on the device from the
// cached roster and this device's own scans (the server's scan flags, as far as one phone can
// know them). The server decides again when the scan arrives; its answer is shown in the
// list once synced.
import type { ScanFlagReasonName } from '@rally/shared/catalog';
import type { RosterRider } from '@rally/shared/contracts/scans';
import type { Station } from '@rally/shared/contracts/stations';
import type { RiderToken } from './rider-token';

/** The same rider at the same station within this window is one scan, not thirty. */
export const SCAN_COOLDOWN_MS = 10_000;

export interface RosterIndex {
  byCode: Map<string, RosterRider>;
  byNumber: Map<number, RosterRider>;
}

export function indexRoster(riders: Iterable<RosterRider>): RosterIndex {
  const byCode = new Map<string, RosterRider>();
  const byNumber = new Map<number, RosterRider>();
  for (const rider of riders) {
    if (rider.riderCode) byCode.set(rider.riderCode.toUpperCase(), rider);
    if (rider.riderNumber !== null) byNumber.set(rider.riderNumber, rider);
  }
  return { byCode, byNumber };
}

export function findRider(index: RosterIndex, token: RiderToken): RosterRider | undefined {
  return 'riderCode' in token ? index.byCode.get(token.riderCode.toUpperCase()) : index.byNumber.get(token.riderNumber);
}

/** One earlier scan this device made, enough to judge re-scans, order and the cooldown. */
export interface PastScan {
  key: string;
  stationId: string;
  at: number;
}

export type LocalVerdict =
  | { tone: 'accepted'; rider: RosterRider }
  | { tone: 'flagged'; rider: RosterRider; reason: ScanFlagReasonName }
  | { tone: 'unknown'; reason: 'unknown_rider' };

export interface VerdictInput {
  rider: RosterRider | undefined;
  station: Station;
  stations: readonly Station[];
  /** This device's scans of the same rider (any station), oldest first. */
  history: readonly PastScan[];
  now: number;
}

export function localVerdict({ rider, station, stations, history, now }: VerdictInput): LocalVerdict {
  if (!rider) return { tone: 'unknown', reason: 'unknown_rider' };
  const flag = (reason: ScanFlagReasonName): LocalVerdict => ({ tone: 'flagged', rider, reason });
  if (rider.status !== 'verified') return flag('not_verified');
  if (station.routes.length > 0 && !(rider.route && (station.routes as string[]).includes(rider.route)))
    return flag('wrong_route');
  if (station.opensAt && now < Date.parse(station.opensAt)) return flag('before_opening');
  if (station.closesAt && now > Date.parse(station.closesAt)) return flag('after_closing');
  if (history.some((s) => s.stationId === station.id)) return flag('rescan');
  const later = new Set(stations.filter((s) => s.day === station.day && s.order > station.order).map((s) => s.id));
  if (history.some((s) => later.has(s.stationId))) return flag('out_of_order');
  return { tone: 'accepted', rider };
}

/** The last scan of this rider at this station if it is recent enough to be the same one. */
export function withinCooldown(history: readonly PastScan[], stationId: string, now: number): PastScan | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const scan = history[i];
    if (scan && scan.stationId === stationId && now - scan.at < SCAN_COOLDOWN_MS) return scan;
  }
  return undefined;
}
