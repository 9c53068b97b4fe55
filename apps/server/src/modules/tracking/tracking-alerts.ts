// Judging a tracked rider from their newest positions (DESIGN.md §11): moving or stopped,
// on or off the route, and the alerts that open incidents on the SOS path.
// (Being written: until then every fresh position reads as "moving".)
import type { TrackState } from '@rally/shared/catalog/tracking';
import type { Tx } from '../../db/client';
import type { TrackerRow } from '../../db/schema/tracking';
import type { Messenger } from '../messages/messenger';

export interface NewPosition {
  at: Date;
  lat: number;
  lng: number;
  /** m/s */
  speed: number | null;
  accuracy: number | null;
  /** percent 0–100 */
  battery: number | null;
  charging: boolean | null;
}

export interface Judgement {
  state: TrackState;
  alongM: number | null;
  offRouteM: number | null;
}

/**
 * Called by the ingest inside its transaction, the tracker row locked (FOR UPDATE), after the
 * positions were stored and `trackers.last_*` moved to the newest. `fresh`: the stored
 * positions newer than the previous last position, ascending by time (a late buffer flush
 * of older ones is stored but not judged). Updates the tracker's alert state and opens
 * incidents through the SOS path.
 */
export async function judgeTracker(
  _tx: Tx,
  _tracker: TrackerRow,
  _fresh: readonly NewPosition[],
  _now: Date,
  _messenger: Messenger,
): Promise<Judgement> {
  return { state: 'moving', alongM: null, offRouteM: null };
}
