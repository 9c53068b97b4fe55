import { describe, expect, it } from 'vitest';
import {
  formatRallyDay,
  formatRallyMoment,
  fromRallyLocalInput,
  registrationClosedMessage,
  registrationState,
  toRallyLocalInput,
} from './editions';

describe('editions catalog', () => {
  const window = { registrationOpensAt: '2027-02-01T00:00:00.000Z', registrationClosesAt: '2027-03-01T00:00:00.000Z' };

  it('places a moment in the registration window; open ends never refuse', () => {
    expect(registrationState(window, new Date('2027-01-31T23:59:59Z'))).toBe('not_yet');
    expect(registrationState(window, new Date('2027-02-01T00:00:00Z'))).toBe('open');
    expect(registrationState(window, new Date('2027-03-01T00:00:00Z'))).toBe('closed');
    const none = { registrationOpensAt: null, registrationClosesAt: null };
    expect(registrationState(none, new Date('1999-01-01T00:00:00Z'))).toBe('open');
  });

  it('names the dates in Manila time', () => {
    expect(registrationClosedMessage('Rally 2027', window, new Date('2027-01-01T00:00:00Z'))).toBe(
      'Registration for Rally 2027 opens on February 1, 2027, 8:00 AM. It closes on March 1, 2027, 8:00 AM.',
    );
    expect(registrationClosedMessage('Rally 2027', window, new Date('2027-04-01T00:00:00Z'))).toBe(
      'Registration for Rally 2027 closed on March 1, 2027, 8:00 AM.',
    );
    expect(registrationClosedMessage('Rally 2027', window, new Date('2027-02-10T00:00:00Z'))).toBeNull();
    expect(formatRallyMoment('2027-02-01T05:30:00Z')).toBe('February 1, 2027, 1:30 PM');
    expect(formatRallyDay('2026-12-31T16:00:00Z')).toBe('January 1, 2027');
  });

  it('round-trips a datetime-local value as Manila time', () => {
    expect(fromRallyLocalInput('2027-02-01T08:00')).toBe('2027-02-01T08:00:00+08:00');
    expect(toRallyLocalInput('2027-02-01T00:00:00.000Z')).toBe('2027-02-01T08:00');
    expect(toRallyLocalInput(fromRallyLocalInput('2026-12-31T23:30'))).toBe('2026-12-31T23:30');
    expect(fromRallyLocalInput('')).toBeNull();
    expect(toRallyLocalInput(null)).toBe('');
  });
});
