import { describe, expect, it } from 'vitest';
import { formatPesoCentavos, isLowConfidence, searchTerm, showPaidAt, showReference } from './receipt-display';

describe('receipt display', () => {
  it('writes amounts to the centavo', () => {
    expect(formatPesoCentavos(1500)).toBe('₱1,500.00');
    expect(formatPesoCentavos(1499.5)).toBe('₱1,499.50');
    expect(formatPesoCentavos(1234567.891)).toBe('₱1,234,567.89');
    expect(formatPesoCentavos(0)).toBe('₱0.00');
  });

  it('groups a GCash reference 4-3-6', () => {
    expect(showReference('1001543610110')).toBe('1001 543 610110');
    expect(showReference(null)).toBeNull();
  });

  it('shows the time paid in Manila, whatever the device zone', () => {
    expect(showPaidAt('2027-03-12T02:05:00Z')).toBe('March 12, 2027, 10:05 AM');
    expect(showPaidAt('not a date')).toBeNull();
  });

  it('marks confidence under 0.8 only', () => {
    expect(isLowConfidence(0.79)).toBe(true);
    expect(isLowConfidence(0.8)).toBe(false);
    expect(isLowConfidence(null)).toBe(false);
  });

  it('searches a reference typed with spaces or dashes by its digits, anything else as typed', () => {
    expect(searchTerm(' 1001 543 610110 ')).toBe('1001543610110');
    expect(searchTerm('1001-543-610110')).toBe('1001543610110');
    expect(searchTerm('1001543610110')).toBe('1001543610110');
    expect(searchTerm('Juan Dela Cruz')).toBe('Juan Dela Cruz');
    expect(searchTerm('MWR-2027 42')).toBe('MWR-2027 42');
  });
});
