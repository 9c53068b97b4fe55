// Why a scan is doubtful (unknown rider, wrong route, out of order, ...), decided for one
// scan against the rider's passages so far, by the rule the marshal's phone applies too
// (packages/shared/src/scan-verdict.ts): this file only gathers the server's facts for it.
// Kept, never refused: a flagged scan is stored for staff review and not counted.
import { routeForCategory, type ScanFlagReasonName } from '@rally/shared/catalog/event-day';
import type { ScanItem } from '@rally/shared/contracts/scans';
import { scanVerdict } from '@rally/shared/scan-verdict';
import type { StationRow } from '../../db/schema/event-day';

export interface Rider {
  id: string;
  firstName: string;
  lastName: string;
  kitName: string | null;
  riderNumber: number | null;
  riderCode: string | null;
  category: string | null;
  status: string;
  verificationStatus: string | null;
}

export interface PassageState {
  /** rider → stations with a passage */
  stations: Map<string, Set<string>>;
  /** rider → day → highest order passed */
  highest: Map<string, Map<number, number>>;
}

export function notePassage(state: PassageState, riderId: string, station: { id: string; day: number; order: number }) {
  const set = state.stations.get(riderId) ?? new Set<string>();
  state.stations.set(riderId, set);
  set.add(station.id);
  const days = state.highest.get(riderId) ?? new Map<number, number>();
  state.highest.set(riderId, days);
  days.set(station.day, Math.max(days.get(station.day) ?? Number.NEGATIVE_INFINITY, station.order));
}

/** The flag a scan earns, or null when it is a clean passage. One reason: the first that applies. */
export function flagFor(
  item: ScanItem,
  station: StationRow,
  rider: Rider | null,
  state: PassageState,
  now: Date,
): ScanFlagReasonName | null {
  return scanVerdict({
    rider: rider && {
      verificationStatus: rider.verificationStatus,
      active: rider.status === 'active',
      route: routeForCategory(rider.category),
    },
    station,
    scannedAt: item.scannedAt,
    receivedAt: now,
    passedHere: rider ? (state.stations.get(rider.id)?.has(station.id) ?? false) : false,
    highestOrderThatDay: rider ? state.highest.get(rider.id)?.get(station.day) : undefined,
  });
}
