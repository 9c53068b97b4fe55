// A tracked rider's state on the board (DESIGN.md §11), from their tracker row alone; finished
// and DNF come from the course, which the caller passes. Shared by the alerts (the `position`
// event), the board and the overdue list, so none disagrees.
import { NO_SIGNAL_AFTER_MS, type TrackState } from '@rally/shared/catalog/tracking';
import type { TrackerRow } from '../../db/schema/tracking';

/** Still this long within the stopped radius: the map shows the rider as stopped (the alert waits longer). */
export const STOPPED_SHOWN_AFTER_MS = 5 * 60_000;

/**
 * No signal first among the rest: a rider whose phone went quiet is the one to look at,
 * whatever they were doing before.
 */
export function trackStateOf(
  t: Pick<TrackerRow, 'lastAt' | 'anchorAt' | 'offRoute'>,
  now: Date,
  course?: string | null,
): TrackState {
  if (course === 'finished' || course === 'dnf') return course;
  if (!t.lastAt || now.getTime() - t.lastAt.getTime() > NO_SIGNAL_AFTER_MS) return 'no_signal';
  if (t.offRoute) return 'off_route';
  if (t.anchorAt && t.lastAt.getTime() - t.anchorAt.getTime() >= STOPPED_SHOWN_AFTER_MS) return 'stopped';
  return 'moving';
}
