import { describe, expect, it } from 'vitest';
import { formatElapsed, matchesSearch } from './live-format';

describe('live tracker formatting', () => {
  it('prints elapsed time as h:mm:ss past a day', () => {
    expect(formatElapsed(0)).toBe('0:00:00');
    expect(formatElapsed((9 * 3600 + 5 * 60 + 7) * 1000)).toBe('9:05:07');
    expect(formatElapsed(27 * 3600 * 1000)).toBe('27:00:00');
  });

  it('finds riders by number prefix or by kit name', () => {
    const rider = { riderNumber: 127, kitName: 'Iron Hawk' };
    expect(matchesSearch(rider, '12')).toBe(true);
    expect(matchesSearch(rider, '#127')).toBe(true);
    expect(matchesSearch(rider, '7')).toBe(false);
    expect(matchesSearch(rider, 'hawk')).toBe(true);
    expect(matchesSearch(rider, 'eagle')).toBe(false);
    expect(matchesSearch(rider, '  ')).toBe(true);
  });
});
