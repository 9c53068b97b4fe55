import type { RiderCourseState, RouteRulesView } from '@rally/shared/contracts/course';
import { describe, expect, it } from 'vitest';
import { nextOverdueAt } from './use-overdue-alarm';

const rider = (over: Partial<RiderCourseState>): RiderCourseState =>
  ({ route: 'lakan', overdue: false, dueAt: null, ...over }) as RiderCourseState;
const rules = [{ routeId: 'lakan', overdueAfterMinutes: 30 }] as RouteRulesView[];

describe('nextOverdueAt', () => {
  it('is the earliest due time plus the route grace among riders not yet overdue', () => {
    const at = nextOverdueAt(
      [
        rider({ dueAt: '2026-11-25T10:00:00.000Z' }),
        rider({ dueAt: '2026-11-25T09:00:00.000Z', overdue: true }),
        rider({ dueAt: '2026-11-25T09:30:00.000Z' }),
        rider({ dueAt: null }),
      ],
      rules,
    );
    expect(at).toBe(Date.parse('2026-11-25T10:00:00.000Z') + 1_000);
  });

  it('is null when nobody on course has a due time', () => {
    expect(nextOverdueAt([rider({}), rider({ overdue: true, dueAt: '2026-11-25T09:00:00.000Z' })], rules)).toBeNull();
  });
});
