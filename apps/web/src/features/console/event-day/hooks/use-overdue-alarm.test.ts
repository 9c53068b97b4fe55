import type { RiderCourseState } from '@rally/shared/contracts/course';
import { describe, expect, it } from 'vitest';
import { nextChangeAt } from './use-overdue-alarm';

const rider = (over: Partial<RiderCourseState>): RiderCourseState =>
  ({ overdue: false, overdueAt: null, nextCutoffAt: null, ...over }) as RiderCourseState;

describe('nextChangeAt', () => {
  it('is the earliest moment a rider turns overdue or misses a cutoff, a second after it', () => {
    const at = nextChangeAt([
      rider({ overdueAt: '2026-11-25T10:30:00.000Z' }),
      // Already overdue: that moment has passed and changes nothing more.
      rider({ overdue: true, overdueAt: '2026-11-25T09:00:00.000Z' }),
      rider({ overdueAt: '2026-11-25T10:00:00.000Z', nextCutoffAt: '2026-11-25T11:00:00.000Z' }),
    ]);
    expect(at).toBe(Date.parse('2026-11-25T10:00:00.000Z') + 1_000);
    expect(nextChangeAt([rider({ nextCutoffAt: '2026-11-25T08:00:00.000Z' })])).toBe(
      Date.parse('2026-11-25T08:00:00.000Z') + 1_000,
    );
  });

  it('is null when nothing on course changes by the clock', () => {
    expect(nextChangeAt([rider({}), rider({ overdue: true, overdueAt: '2026-11-25T09:00:00.000Z' })])).toBeNull();
  });
});
