// Nobody scans a rider who is late, so no event announces that they became overdue or
// missed a cutoff: those change by the clock. The on-course list says when each will
// happen (overdueAt, nextCutoffAt), and the board refetches once at the earliest such
// moment. One timer to a known time, re-armed from each new answer; no polling.
import type { RiderCourseState } from '@rally/shared/contracts/course';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { boardKeys } from '../api/board-api';

/** Browsers fire timers beyond ~24.8 days at once; nothing on a rally day is that far. */
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;
/** A second past the moment, so the server's clock has surely passed it too. */
const MARGIN_MS = 1_000;

export function nextChangeAt(riders: readonly RiderCourseState[]): number | null {
  let next: number | null = null;
  const consider = (iso: string | null) => {
    if (!iso) return;
    const at = Date.parse(iso) + MARGIN_MS;
    if (next === null || at < next) next = at;
  };
  for (const r of riders) {
    if (!r.overdue) consider(r.overdueAt);
    consider(r.nextCutoffAt);
  }
  return next;
}

export function useOverdueAlarm(riders: readonly RiderCourseState[] | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!riders) return;
    const at = nextChangeAt(riders);
    if (at === null) return;
    const wait = Math.min(MAX_WAIT_MS, Math.max(0, at - Date.now()));
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: boardKeys.all }), wait);
    return () => clearTimeout(timer);
  }, [riders, queryClient]);
}
