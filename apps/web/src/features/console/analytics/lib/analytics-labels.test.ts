import { describe, expect, it } from 'vitest';
import { categoryLabel, dayLabel, durationLabel, routeLabel, sizeLabel } from './analytics-labels';

describe('analytics labels', () => {
  it('says a turnaround as staff say it', () => {
    expect(durationLabel(null)).toBe('—');
    expect(durationLabel(0)).toBe('0 min');
    expect(durationLabel(45 * 60 + 20)).toBe('45 min');
    expect(durationLabel(2 * 3600)).toBe('2 h');
    expect(durationLabel(2.8 * 3600)).toBe('2 h 48 min');
    expect(durationLabel(3 * 86400 + 4 * 3600)).toBe('3 d 4 h');
    expect(durationLabel(2 * 86400)).toBe('2 d');
  });

  it('reads a Manila day as that calendar day, whatever the browser zone', () => {
    expect(dayLabel('2026-11-02')).toBe('Nov 2');
  });

  it('names categories, routes and sizes as the console does', () => {
    expect(categoryLabel('lakambini-obr')).toBe('LAKAMBINI OBR');
    expect(categoryLabel(null)).toBe('Not set');
    expect(routeLabel('lakambini')).toBe('Lakambini/Magani');
    expect(routeLabel(null)).toBe('No category');
    expect(sizeLabel({ size: 'CUSTOM', custom: 'XL Tall', riders: 2 })).toBe('Custom: XL Tall');
    expect(sizeLabel({ size: 'M', custom: '', riders: 0 })).toBe('M');
  });
});
