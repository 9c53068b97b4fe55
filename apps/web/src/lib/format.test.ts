import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

describe('formatDate', () => {
  it('writes what the en-PH short date format writes, for every day of a leap year and more', () => {
    const days: Date[] = [];
    for (
      let d = new Date(2024, 0, 1);
      d.getFullYear() === 2024;
      d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)
    )
      days.push(d);
    days.push(new Date(1950, 6, 4), new Date(2099, 11, 31), new Date('2000-01-05T00:00:00'));
    for (const day of days)
      expect(formatDate(day)).toBe(
        day.toLocaleDateString('en-PH', { year: 'numeric', month: 'short', day: 'numeric' }),
      );
  });

  it('reads ISO strings and leaves an invalid date blank', () => {
    expect(formatDate('1987-12-25T00:00:00')).toBe('Dec 25, 1987');
    expect(formatDate('not a date')).toBe('');
  });
});
