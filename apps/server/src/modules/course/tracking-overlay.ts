// The overdue list, fed by the trackers (DESIGN.md §11). Scans say when a rider was due at
// the next station (start + the rule's minutes); a tracker says more. A rider moving along
// the route is due when their recent speed gets them there (the ETA), so a slow but steady
// rider is not "overdue" because a default said so; a rider whose stop raised the alert is
// overdue from that moment, however much of the window is left. Riders without a tracker
// (or whose tracker says nothing useful: no signal, off route) keep the scans' due time.
import { DEFAULT_OVERDUE_AFTER_MINUTES } from '@rally/shared/catalog/event-day';
import type { DbOrTx } from '../../db/client';
import type { EditionRead } from '../../lib/edition-of';
import { type CourseHint, loadTrackingViews } from '../trackers/tracking-view';
import type { CourseState, RouteRules } from './course-state';

/** Adjusts `states` in place (the on-course riders with a tracker); `edition`'s trackers (default: the current one's). */
export async function applyTracking(
  db: DbOrTx,
  snapshot: { day: number; rules: Map<string, RouteRules>; states: CourseState[] },
  now: Date,
  edition?: EditionRead,
): Promise<void> {
  const candidates = snapshot.states.filter((s) => s.state === 'on_course' && s.nextStation !== null);
  if (candidates.length === 0) return;
  const course = new Map<string, CourseHint>(
    candidates.map((s) => [s.riderId, { state: s.state, nextStationId: s.nextStation?.id ?? null }]),
  );
  const views = await loadTrackingViews(db, {
    now,
    day: snapshot.day,
    riderIds: candidates.map((s) => s.riderId),
    course,
    edition,
  });
  const byRider = new Map(candidates.map((s) => [s.riderId, s]));
  for (const view of views) {
    const state = byRider.get(view.tracker.userId);
    if (!state) continue;
    if (view.state === 'stopped' && view.alert?.kind === 'stopped') {
      // The stop alert fired away from a station: overdue now, the alert's time as the mark.
      const at = view.alert.since;
      if (!state.overdueAt || at < state.overdueAt) state.overdueAt = at;
      state.overdue = true;
      state.overdueMs = Math.max(0, now.getTime() - state.overdueAt.getTime());
      continue;
    }
    const eta = view.nextStation?.eta;
    if (view.state === 'moving' && eta && state.dueAt && view.nextStation?.id === state.nextStation?.id) {
      const grace =
        (state.route ? snapshot.rules.get(state.route)?.overdueAfterMinutes : undefined) ??
        DEFAULT_OVERDUE_AFTER_MINUTES;
      state.dueAt = eta;
      state.overdueAt = new Date(eta.getTime() + grace * 60_000);
      const past = now.getTime() - state.overdueAt.getTime();
      state.overdue = past > 0;
      state.overdueMs = Math.max(past, 0);
    }
  }
}
