import { describe, expect, it } from 'vitest';
import { comparisonRows, comparisonSummary } from './edition-comparison';

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

  it('has no rows before either edition has an entry', () => {
    expect(comparisonRows({ current: { edition: '2027', days: [] }, previous: null })).toEqual([]);
  });
});

describe('comparisonSummary', () => {
  it('sets this edition against the last on the same day', () => {
    expect(
      comparisonSummary({
        current: { edition: 'Warriors 2027', days: [100, 0, 40] },
        previous: { edition: 'Warriors 2026', days: [50, 60, 8, 300] },
      }),
    ).toBe('By day 3, Warriors 2027 has 140 riders; Warriors 2026 had 118 riders by its day 3.');
  });

  it('counts all of the last edition when this one has gone on longer', () => {
    expect(
      comparisonSummary({
        current: { edition: 'Warriors 2027', days: [1, 0, 0] },
        previous: { edition: 'Warriors 2026', days: [1] },
      }),
    ).toBe('By day 3, Warriors 2027 has 1 rider; Warriors 2026 had 1 rider by its day 3.');
  });

  it('says when this edition has no entry yet, and nothing without a last edition', () => {
    expect(
      comparisonSummary({
        current: { edition: 'Warriors 2027', days: [] },
        previous: { edition: 'Warriors 2026', days: [2, 1] },
      }),
    ).toBe('No entries in Warriors 2027 yet; Warriors 2026 had 3 riders.');
    expect(comparisonSummary({ current: { edition: 'Warriors 2027', days: [4] }, previous: null })).toBeNull();
  });
});
