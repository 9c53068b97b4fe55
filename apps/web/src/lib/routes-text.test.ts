import { describe, expect, it } from 'vitest';
import { routesText } from './routes-text';

describe('routes of a station', () => {
  it('no routes means every route; otherwise the catalog names', () => {
    expect(routesText([])).toBe('All routes');
    expect(routesText(['lakambini', 'bagani'])).toBe('Lakambini/Magani, Bagani');
  });
});
