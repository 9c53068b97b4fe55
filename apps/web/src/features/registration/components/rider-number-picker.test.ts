import { describe, expect, it } from 'vitest';
import { startOf } from './rider-number-picker';

describe('startOf', () => {
  it('opens on the range and page that show the chosen number', () => {
    expect(startOf(42)).toEqual({ rangeIndex: 0, page: 0 });
    expect(startOf(848)).toEqual({ rangeIndex: 8, page: 0 });
    expect(startOf(875)).toEqual({ rangeIndex: 8, page: 1 });
    expect(startOf(1000)).toEqual({ rangeIndex: 9, page: 2 });
  });

  it('opens on the first page without one', () => {
    expect(startOf(null)).toEqual({ rangeIndex: 0, page: 0 });
  });
});
