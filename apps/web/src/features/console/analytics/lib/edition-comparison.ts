// This edition's registrations against the last one's, day by day since each one's first
// entry, with the running totals: "by day 12 we had 140 riders, last year 118".
import type { RegistrationsComparison } from '@rally/shared/contracts/editions';

export interface ComparisonRow {
  day: number;
  current: number | null;
  previous: number | null;
  currentTotal: number | null;
  previousTotal: number | null;
}

export function comparisonRows(comparison: RegistrationsComparison): ComparisonRow[] {
  const current = comparison.current.days;
  const previous = comparison.previous?.days ?? [];
  const length = Math.max(current.length, previous.length);
  const rows: ComparisonRow[] = [];
  let currentTotal = 0;
  let previousTotal = 0;
  for (let i = 0; i < length; i++) {
    const c = current[i];
    const p = previous[i];
    if (c !== undefined) currentTotal += c;
    if (p !== undefined) previousTotal += p;
    rows.push({
      day: i + 1,
      current: c ?? null,
      previous: p ?? null,
      // A day this edition has not reached yet has no total.
      currentTotal: c !== undefined ? currentTotal : null,
      previousTotal: p !== undefined ? previousTotal : null,
    });
  }
  return rows;
}
