// Why a scan is doubtful (unknown rider, wrong route, out of order, ...), decided for one
// scan against the rider's passages so far.
// Kept, never refused: a flagged scan is stored for staff review and not counted.
import { routeForCategory, SCAN_CLOCK_SKEW_MS } from '@rally/shared/catalog';
import type { ScanItem } from '@rally/shared/contracts/scans';
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
export function flagFor(item: ScanItem, station: StationRow, rider: Rider | null, state: PassageState, now: Date) {
  if (!rider) return 'unknown_rider';
  if (rider.verificationStatus !== 'verified' || rider.status !== 'active') return 'not_verified';
  const at = new Date(item.scannedAt);
  if (Math.abs(at.getTime() - now.getTime()) > SCAN_CLOCK_SKEW_MS) return 'clock_skew';
  const routes = station.routes;
  if (routes.length > 0) {
    const route = routeForCategory(rider.category);
    if (!route || !routes.includes(route)) return 'wrong_route';
  }
  if (state.stations.get(rider.id)?.has(station.id)) return 'rescan';
  if (station.opensAt && at < station.opensAt) return 'before_opening';
  if (station.closed || (station.closesAt && at > station.closesAt)) return 'after_closing';
  const highest = state.highest.get(rider.id)?.get(station.day);
  if (highest !== undefined && highest > station.order) return 'out_of_order';
  return null;
}
