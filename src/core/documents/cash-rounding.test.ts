import { describe, expect, it } from 'vitest';
import { cashRounded, roundingOf } from './cash-rounding.js';

describe('cash rounding to 5 cents', () => {
  it('rounds remainders 1, 2 down and 3, 4 up', () => {
    const got = [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009].map(cashRounded);
    expect(got).toEqual([1000, 1000, 1000, 1005, 1005, 1005, 1005, 1005, 1010, 1010]);
  });

  it('rounds a total of 1 or 2 cents to 5 cents', () => {
    expect(cashRounded(1)).toBe(5);
    expect(cashRounded(2)).toBe(5);
    expect(cashRounded(3)).toBe(5);
    expect(cashRounded(0)).toBe(0);
  });

  it('is symmetric for money paid out', () => {
    expect(cashRounded(-998)).toBe(-1000);
    expect(cashRounded(-1002)).toBe(-1000);
    expect(cashRounded(-1)).toBe(-5);
  });

  it('accepts the exact sum or its rounding only', () => {
    expect(roundingOf(1000, 998)).toBe(2);
    expect(roundingOf(998, 998)).toBe(0);
    expect(roundingOf(1000, 1003)).toBeUndefined();
    expect(roundingOf(995, 998)).toBeUndefined();
    expect(roundingOf(5, 1)).toBe(4);
  });
});
