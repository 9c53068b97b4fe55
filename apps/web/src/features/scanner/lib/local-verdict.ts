// The verdict a marshal sees the moment a rider is scanned, computed on the device from the
// cached roster, the stations (a closed one included) and this device's own scans, by the
// server's own rule (packages/shared/src/scan-verdict.ts) as far as one phone can know its
// facts. The server decides again when the scan arrives; its answer is shown in the list
// once synced.
import type { ScanFlagReasonName } from '@rally/shared/catalog/event-day';
import type { RosterRider } from '@rally/shared/contracts/scans';
import type { Station } from '@rally/shared/contracts/stations';
import { scanVerdict } from '@rally/shared/scan-verdict';
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
  // The orders of the stations of the day this device has scanned the rider at.
  const orderOf = new Map(stations.filter((s) => s.day === station.day).map((s) => [s.id, s.order]));
  const orders = history.flatMap((s) => orderOf.get(s.stationId) ?? []);
  const reason = scanVerdict({
    // The roster holds active accounts only; its status is the payment's verification.
    rider: { verificationStatus: rider.status, active: true, route: rider.route },
    station,
    scannedAt: now,
    passedHere: history.some((s) => s.stationId === station.id),
    highestOrderThatDay: orders.length > 0 ? Math.max(...orders) : undefined,
  });
  return reason ? { tone: 'flagged', rider, reason } : { tone: 'accepted', rider };
}

/** The last scan of this rider at this station if it is recent enough to be the same one. */
export function withinCooldown(history: readonly PastScan[], stationId: string, now: number): PastScan | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const scan = history[i];
    if (scan && scan.stationId === stationId && now - scan.at < SCAN_COOLDOWN_MS) return scan;
  }
  return undefined;
}
