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

const riders = (n: number) => `${n.toLocaleString('en-PH')} ${n === 1 ? 'rider' : 'riders'}`;
const sum = (days: number[]) => days.reduce((total, n) => total + n, 0);

/**
 * Where this edition stands against the last on the same day since its first entry:
 * "By day 12, Warriors 2027 has 140 riders; Warriors 2026 had 118 riders by its day 12."
 */
export function comparisonSummary(comparison: RegistrationsComparison): string | null {
  const { current, previous } = comparison;
  if (!previous) return null;
  const day = current.days.length;
  if (day === 0) return `No entries in ${current.edition} yet; ${previous.edition} had ${riders(sum(previous.days))}.`;
  const then = sum(previous.days.slice(0, day));
  return `By day ${day}, ${current.edition} has ${riders(sum(current.days))}; ${previous.edition} had ${riders(then)} by its day ${day}.`;
}
