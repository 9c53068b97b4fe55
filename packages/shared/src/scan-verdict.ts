// Whether a scan is a clean passage or why it is doubtful: one rule for the server, which
// decides for good when the scan arrives, and for the marshal's phone, which shows its verdict
// at once from what it holds offline (its roster, the stations, its own scans). Each caller
// turns what it knows into these facts; the checks and their order live here only (DESIGN §8).
import { SCAN_CLOCK_SKEW_MS, type ScanFlagReasonName } from './catalog/event-day';

export interface VerdictRider {
  /** The payment's verification status: only 'verified' riders pass. */
  verificationStatus: string | null;
  /** The account is active (a phone's roster holds active accounts only). */
  active: boolean;
  /** The route the rider rides (routeForCategory), null when the category has none. */
  route: string | null;
}

/** A station as the server stores it (dates) or the phone caches it (ISO text). */
export interface VerdictStation {
  id: string;
  day: number;
  order: number;
  /** Empty: every route. */
  routes: readonly string[];
  opensAt: Date | string | null;
  closesAt: Date | string | null;
  closed: boolean;
}

export interface ScanVerdictInput {
  /** Null or undefined: nobody has this code or number. */
  rider: VerdictRider | null | undefined;
  station: VerdictStation;
  /** The moment the device says it scanned. */
  scannedAt: Date | string | number;
  /**
   * The receiver's clock. The server passes its own to flag a device clock far off; the phone
   * passes none, its clock being the one that stamped the scan.
   */
  receivedAt?: Date | number;
  /** The rider already has a passage at this station. */
  passedHere: boolean;
  /** The highest `order` among the rider's passages on the station's day; undefined if none. */
  highestOrderThatDay: number | undefined;
}

const ms = (at: Date | string | number) => (typeof at === 'number' ? at : new Date(at).getTime());

/**
 * The flag a scan earns, or null for a clean passage. One reason, the first that applies, in
 * this order. A first scan at a station without earlier ones is clean: a station missed before
 * it shows on the board, not as a flag here.
 */
export function scanVerdict(input: ScanVerdictInput): ScanFlagReasonName | null {
  const { rider, station } = input;
  if (!rider) return 'unknown_rider';
  if (rider.verificationStatus !== 'verified' || !rider.active) return 'not_verified';
  const at = ms(input.scannedAt);
  if (input.receivedAt !== undefined && Math.abs(at - ms(input.receivedAt)) > SCAN_CLOCK_SKEW_MS) return 'clock_skew';
  if (station.routes.length > 0 && !(rider.route && station.routes.includes(rider.route))) return 'wrong_route';
  if (input.passedHere) return 'rescan';
  if (station.opensAt && at < ms(station.opensAt)) return 'before_opening';
  if (station.closed || (station.closesAt && at > ms(station.closesAt))) return 'after_closing';
  if (input.highestOrderThatDay !== undefined && input.highestOrderThatDay > station.order) return 'out_of_order';
  return null;
}
