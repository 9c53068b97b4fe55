import { describe, expect, it } from 'vitest';
import { birthdateText, intParam, makePagination } from './common';

describe('common contract pieces', () => {
  it('makePagination counts pages, at least one', () => {
    expect(makePagination(1, 20, 0)).toEqual({ page: 1, limit: 20, total: 0, total_pages: 1 });
    expect(makePagination(2, 20, 41)).toEqual({ page: 2, limit: 20, total: 41, total_pages: 3 });
  });

  it('intParam coerces query text, applies its default and names the parameter when refusing', () => {
    const limit = intParam('limit', { min: 1, max: 100, default: 20 });
    expect(limit.parse(undefined)).toBe(20);
    expect(limit.parse('7')).toBe(7);
    expect(limit.safeParse('0').error?.issues[0]?.message).toBe('limit must be at least 1');
    expect(limit.safeParse('101').error?.issues[0]?.message).toBe('limit must be at most 100');
    expect(limit.safeParse('2.5').error?.issues[0]?.message).toBe('limit must be a whole number');
    expect(limit.safeParse('x').error?.issues[0]?.message).toBe('limit must be a number');
  });

  it('birthdateText accepts real past dates only', () => {
    const b = birthdateText();
    expect(b.parse('1990-06-12')).toBe('1990-06-12');
    expect(b.safeParse('1990-6-12').error?.issues[0]?.message).toBe('birthdate must be a date (YYYY-MM-DD)');
    expect(b.safeParse('2023-02-29').error?.issues[0]?.message).toBe('birthdate must be a real date');
    expect(b.safeParse('2999-01-01').error?.issues[0]?.message).toBe('birthdate must be in the past');
    expect(b.safeParse(19900612).error?.issues[0]?.message).toBe('birthdate must be text');
  });
});
