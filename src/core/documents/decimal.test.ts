import { describe, expect, it } from 'vitest';
import {
  centsToNumber,
  divRoundHalfAwayFromZero,
  formatCents,
  formatScaled,
  lineTotalCents,
  toScaledInteger,
} from './decimal.js';

describe('toScaledInteger reads a JSON number from its shortest decimal text', () => {
  it('reads amounts exactly', () => {
    expect(toScaledInteger(0.1, 2)).toBe(10n);
    expect(toScaledInteger(12.3, 2)).toBe(1230n);
    expect(toScaledInteger(236.23, 2)).toBe(23623n);
    expect(toScaledInteger(-100, 2)).toBe(-10000n);
    expect(toScaledInteger(10000000, 2)).toBe(1000000000n);
    expect(toScaledInteger(-0, 2)).toBe(0n);
    // 1.005 is 1.00499999999999989... as a double, but its shortest text is "1.005": 3 places
    expect(toScaledInteger(1.005, 2)).toBeUndefined();
    expect(toScaledInteger(1.005, 3)).toBe(1005n);
  });

  it('refuses the float artefact of 0.1 + 0.2 and anything beyond the scale', () => {
    expect(toScaledInteger(0.1 + 0.2, 2)).toBeUndefined();
    expect(toScaledInteger(0.1 + 0.2, 6)).toBeUndefined();
    expect(toScaledInteger(12.345, 2)).toBeUndefined();
    expect(toScaledInteger(Number.NaN, 2)).toBeUndefined();
    expect(toScaledInteger(Number.POSITIVE_INFINITY, 2)).toBeUndefined();
  });

  it('handles exponent notation', () => {
    expect(toScaledInteger(1e-7, 6)).toBeUndefined();
    expect(toScaledInteger(1e-6, 6)).toBe(1n);
    expect(toScaledInteger(1.5e-6, 6)).toBeUndefined();
    expect(toScaledInteger(2.5e-5, 6)).toBe(25n);
    expect(toScaledInteger(1e21, 2)).toBe(100000000000000000000000n);
    expect(toScaledInteger(-1.25e21, 0)).toBe(-1250000000000000000000n);
  });
});

describe('formatting to XSD lexical strings', () => {
  it('pads to the scale', () => {
    expect(formatCents(1230)).toBe('12.30');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-50)).toBe('-0.50');
    expect(formatCents(0)).toBe('0.00');
    expect(formatScaled(10000n, 4)).toBe('1.0000');
    expect(formatScaled(2300, 2)).toBe('23.00');
  });

  it('trims to a minimum scale', () => {
    expect(formatScaled(87123000n, 6, 2)).toBe('87.123');
    expect(formatScaled(75000000n, 6, 2)).toBe('75.00');
    expect(formatScaled(-15000000n, 6, 0)).toBe('-15');
  });

  it('converts cents to JSON numbers through the decimal text', () => {
    expect(centsToNumber(30)).toBe(0.3);
    expect(centsToNumber(23712)).toBe(237.12);
    expect(centsToNumber(-10000)).toBe(-100);
  });
});

describe('rounding half away from zero', () => {
  it('rounds halves away from zero, symmetric for negatives', () => {
    expect(divRoundHalfAwayFromZero(125n, 10n)).toBe(13n);
    expect(divRoundHalfAwayFromZero(-125n, 10n)).toBe(-13n);
    expect(divRoundHalfAwayFromZero(124n, 10n)).toBe(12n);
    expect(divRoundHalfAwayFromZero(-124n, 10n)).toBe(-12n);
    expect(divRoundHalfAwayFromZero(0n, 7n)).toBe(0n);
  });

  it('computes line totals: unit price × quantity to cents', () => {
    // 87.123 × 1 = 87.123 → 87.12
    expect(lineTotalCents(87_123_000n, 10_000n)).toBe(8712n);
    // 0.125 × 1 = 0.125 → 0.13; −0.125 × 1 → −0.13
    expect(lineTotalCents(125_000n, 10_000n)).toBe(13n);
    expect(lineTotalCents(-125_000n, 10_000n)).toBe(-13n);
    // 1.659 €/l × 42.37 l = 70.29183 → 70.29
    expect(lineTotalCents(1_659_000n, 423_700n)).toBe(7029n);
    // 0.1 × 3 = 0.3 exactly
    expect(lineTotalCents(100_000n, 30_000n)).toBe(30n);
  });
});
