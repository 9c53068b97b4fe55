// A station's opening and closing times go through the browser's datetime-local input,
// which has no time zone: the form must give the server back the instant it showed.
import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from './event-day-display';

describe('station times through a datetime-local input', () => {
  it('shows an ISO instant as local wall time and reads it back as the same instant', () => {
    for (const iso of ['2025-11-15T05:30:00.000Z', '2025-11-15T22:59:00.000Z', '2025-12-31T23:45:00.000Z']) {
      const local = toLocalInput(iso);
      expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      expect(fromLocalInput(local)).toBe(iso);
    }
  });

  it('an empty field is "always open" and a bad one is not a time', () => {
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a time')).toBeNull();
    expect(toLocalInput('garbage')).toBe('');
  });
});
