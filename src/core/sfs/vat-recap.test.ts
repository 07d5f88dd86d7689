import { describe, expect, it } from 'vitest';
import { divideRounded, formatCents, moneyCents } from './decimal-text.js';
import type { SfsItem } from './message.js';
import { computeVatRecap, rateAllowed, vatRegimeAt } from './vat-recap.js';

const item = (Price: string, VatRate: string, ItemType: SfsItem['ItemType'] = 'K'): SfsItem => ({
  ItemType,
  Name: 'x',
  Price,
  Quantity: '1.0000',
  VatRate,
});

describe('VAT recap', () => {
  it('follows the spec rounding examples (2019 rates)', () => {
    // SFS spec §3.3.12.20–22; the cases of Datapac's public worked examples (priklady_JUP.pdf,
    // GitHub datapacsro/oec): 25.00 @20 % → 4.17 / 20.83; 15.00 @10 % → 1.36 / 13.64.
    expect(
      computeVatRecap([item('25.00', '20.00'), item('15.00', '10.00')], { regime: '2019', vatPayer: true }),
    ).toEqual({
      TaxBaseBasic: '20.83',
      BasicVatAmount: '4.17',
      TaxBaseReduced: '13.64',
      ReducedVatAmount: '1.36',
    });
    // The official samples: 150.00 @20 % and 87.23 @10 %.
    expect(
      computeVatRecap([item('150.00', '20.00'), item('87.23', '10.00')], { regime: '2019', vatPayer: true }),
    ).toEqual({
      TaxBaseBasic: '125.00',
      BasicVatAmount: '25.00',
      TaxBaseReduced: '79.30',
      ReducedVatAmount: '7.93',
    });
  });

  it('2026: basic = 23 %, reduced = 19 % and 5 % computed per rate then summed, 0 % tax-free', () => {
    // Made-up values; the 2026 recap rule is ADR 0401.
    const items = [item('3.69', '23.00'), item('2.38', '19.00'), item('2.10', '5.00')];
    expect(computeVatRecap(items, { regime: '2026', vatPayer: true })).toEqual({
      TaxBaseBasic: '3.00',
      BasicVatAmount: '0.69',
      TaxBaseReduced: '4.00',
      ReducedVatAmount: '0.48',
    });
    expect(
      computeVatRecap([...items, item('1.00', '0.00')], { regime: '2026', vatPayer: true }).TaxFreeAmount,
    ).toBe('1.00');
  });

  it('discounts reduce their rate, negative sums round half away from zero', () => {
    const recap = computeVatRecap([item('10.00', '23.00'), item('-1.00', '23.00', 'Z')], {
      regime: '2026',
      vatPayer: true,
    });
    expect(recap).toEqual({ TaxBaseBasic: '7.32', BasicVatAmount: '1.68' });
    const refund = computeVatRecap([item('-10.00', '23.00', 'V')], { regime: '2026', vatPayer: true });
    expect(refund).toEqual({ TaxBaseBasic: '-8.13', BasicVatAmount: '-1.87' });
  });

  it('a non-VAT-payer sends only TaxFreeAmount with the whole sum', () => {
    expect(
      computeVatRecap([item('5.00', '0.00'), item('2.50', '0.00')], { regime: '2026', vatPayer: false }),
    ).toEqual({
      TaxFreeAmount: '7.50',
    });
  });

  it('old rates are allowed from 2025 only on V and O items', () => {
    expect(rateAllowed('2026', 2000, 'K')).toBe(false);
    expect(rateAllowed('2026', 2000, 'V')).toBe(true);
    expect(rateAllowed('2026', 1000, 'O')).toBe(true);
    expect(rateAllowed('2019', 2300, 'K')).toBe(false);
    expect(rateAllowed('2026', 500, 'K')).toBe(true);
  });

  it('picks the regime by Bratislava local date', () => {
    expect(vatRegimeAt(new Date('2025-12-31T22:59:59Z'))).toBe('2025');
    expect(vatRegimeAt(new Date('2025-12-31T23:00:00Z'))).toBe('2026');
    expect(vatRegimeAt(new Date('2024-12-31T23:00:00Z'))).toBe('2025');
    expect(vatRegimeAt(new Date('2024-06-01T00:00:00Z'))).toBe('2019');
  });
});

describe('decimal text', () => {
  it('reads and writes cents exactly', () => {
    expect(moneyCents('237.23')).toBe(23723);
    expect(moneyCents('-0.05')).toBe(-5);
    expect(moneyCents('-0.00')).toBeUndefined();
    expect(moneyCents('1.5')).toBeUndefined();
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(100000000)).toBe('1000000.00');
    expect(divideRounded(5, 2)).toBe(3);
    expect(divideRounded(-5, 2)).toBe(-3);
    expect(divideRounded(4, 3)).toBe(1);
  });
});
