import { describe, expect, it } from 'vitest';
import { formatCents, formatEur } from './format-cents.js';
import { formatReceiptAddress } from './receipt-model.js';

describe('formatCents', () => {
  it('writes two decimals with a dot, sign in front', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-13)).toBe('-0.13');
    expect(formatCents(123456)).toBe('1234.56');
    expect(formatCents(-1000000000)).toBe('-10000000.00');
    expect(formatEur(2185)).toBe('21.85 EUR');
  });

  it('refuses anything but a safe integer (no float money)', () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatReceiptAddress', () => {
  it('writes street, súpisné/orientačné číslo, postal code and town on one line', () => {
    expect(
      formatReceiptAddress({
        street: 'Horná',
        propertyRegistrationNumber: '560',
        buildingNumber: '7',
        postalCode: '98045',
        municipality: 'Štrkovec',
        country: 'Slovenská republika',
      }),
    ).toBe('Horná 560/7, 98045 Štrkovec');
    expect(formatReceiptAddress({ street: 'Hlavná', buildingNumber: '1', municipality: 'Košice' })).toBe(
      'Hlavná 1, Košice',
    );
  });
});
