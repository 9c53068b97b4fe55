// Nobody scans a rider who is late, so no event announces that they became overdue: the
// board knows from the on-course list when each rider is due (plus the route's grace) and
// refetches once at the earliest such moment. One timer to a known time, re-armed from
// each new answer; no polling.
import type { RiderCourseState, RouteRulesView } from '@rally/shared/contracts/course';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { boardKeys } from '../api/board-api';

/** Browsers fire timers beyond ~24.8 days at once; nothing on a rally day is that far. */
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

export function nextOverdueAt(riders: readonly RiderCourseState[], rules: readonly RouteRulesView[]): number | null {
  const grace = new Map(rules.map((r) => [r.routeId, r.overdueAfterMinutes * 60_000]));
  let next: number | null = null;
  for (const r of riders) {
    if (r.overdue || !r.dueAt || !r.route) continue;
    const at = Date.parse(r.dueAt) + (grace.get(r.route) ?? 0) + 1_000;
    if (next === null || at < next) next = at;
  }
  return next;
}

export function useOverdueAlarm(
  riders: readonly RiderCourseState[] | undefined,
  rules: readonly RouteRulesView[] = [],
) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!riders) return;
    const at = nextOverdueAt(riders, rules);
    if (at === null) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, at - Date.now()));
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: boardKeys.all }), wait);
    return () => clearTimeout(timer);
  }, [riders, rules, queryClient]);
}
