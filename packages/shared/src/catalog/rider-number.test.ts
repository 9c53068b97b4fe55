// The rider number's one range and message: the registration form, the API's schema and the
// picker's quick-jump ranges all answer from these.
import { describe, expect, it } from 'vitest';
import { riderNumberSchema } from '../contracts/rider-numbers';
import {
  isRiderNumber,
  RIDER_NUMBER_MAX,
  RIDER_NUMBER_MESSAGE,
  RIDER_NUMBER_MIN,
  RIDER_NUMBER_RANGES,
} from './rider-number';

describe('rider number', () => {
  it('is a whole number from 1 to 1000, with the message riders have always seen', () => {
    expect([RIDER_NUMBER_MIN, RIDER_NUMBER_MAX]).toEqual([1, 1000]);
    expect(RIDER_NUMBER_MESSAGE).toBe('Please select a rider number (1-1000).');
  });

  it.each([
    [1, true],
    [1000, true],
    [42, true],
    [0, false],
    [1001, false],
    [-1, false],
    [1.5, false],
    [Number.NaN, false],
    ['42', false],
    [null, false],
  ] as const)('isRiderNumber(%s) is %s', (value, ok) => {
    expect(isRiderNumber(value)).toBe(ok);
  });

  it.each([
    ['42', 42],
    [7, 7],
    ['1000', 1000],
  ] as const)('the schema reads %j as %d', (value, n) => {
    expect(riderNumberSchema.parse(value)).toBe(n);
  });

  it.each(['0', '1001', '4.5', 'abc', -3])('the schema refuses %j with the one message', (value) => {
    const parsed = riderNumberSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(RIDER_NUMBER_MESSAGE);
  });

  it('the picker’s ranges cover the range once, 1-99 then by hundreds', () => {
    expect(RIDER_NUMBER_RANGES[0]).toEqual({ label: '1-99', from: 1, to: 99 });
    expect(RIDER_NUMBER_RANGES.at(-1)).toEqual({ label: '900-1000', from: 900, to: 1000 });
    for (const [i, range] of RIDER_NUMBER_RANGES.entries()) {
      if (i > 0) expect(range.from).toBe((RIDER_NUMBER_RANGES[i - 1]?.to ?? 0) + 1);
    }
  });
});
