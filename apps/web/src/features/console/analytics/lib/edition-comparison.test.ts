import { describe, expect, it } from 'vitest';
import { comparisonRows } from './edition-comparison';

describe('comparisonRows', () => {
  it('lines up both editions by day since their first entry, with running totals', () => {
    expect(
      comparisonRows({ current: { edition: '2027', days: [5, 0, 3] }, previous: { edition: '2026', days: [2, 4] } }),
    ).toEqual([
      { day: 1, current: 5, previous: 2, currentTotal: 5, previousTotal: 2 },
      { day: 2, current: 0, previous: 4, currentTotal: 5, previousTotal: 6 },
      { day: 3, current: 3, previous: null, currentTotal: 8, previousTotal: null },
    ]);
  });

  it('leaves the days this edition has not reached empty', () => {
    expect(
      comparisonRows({ current: { edition: '2027', days: [1] }, previous: { edition: '2026', days: [1, 1] } })[1],
    ).toEqual({ day: 2, current: null, previous: 1, currentTotal: null, previousTotal: 2 });
  });
});
