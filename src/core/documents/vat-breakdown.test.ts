import { describe, expect, it } from 'vitest';
import { sfsVatRecap, vatBreakdown, vatOfGross } from './vat-breakdown.js';
import { type VatRateName, vatRateByName } from './vat-rates.js';

const line = (rate: VatRateName, totalCents: number) => ({ vatRate: vatRateByName(rate), totalCents });

describe('VAT of one rate: gross × r/(100+r), half up per rate', () => {
  it('matches the SFS spec examples (reference §1.4)', () => {
    // 25.00 @ 20 %: 2500 × 20 / 120 = 416.67 → 4.17 VAT, base 20.83
    expect(vatOfGross(2500, vatRateByName('VAT_20'))).toBe(417);
    // 15.00 @ 10 %: 1500 × 10 / 110 = 136.36 → 1.36
    expect(vatOfGross(1500, vatRateByName('VAT_10'))).toBe(136);
    // 1.00 @ 20 % (real receipt S10, sources in ADR 0009): 100 / 6 = 16.67 → 0.17
    expect(vatOfGross(100, vatRateByName('VAT_20'))).toBe(17);
  });

  it('rounds an exact half away from zero', () => {
    // 0.03 @ 20 %: 3 / 6 = 0.5 cent → 0.01; the refund −0.03 → −0.01
    expect(vatOfGross(3, vatRateByName('VAT_20'))).toBe(1);
    expect(vatOfGross(-3, vatRateByName('VAT_20'))).toBe(-1);
    expect(vatOfGross(12345, vatRateByName('VAT_0'))).toBe(0);
  });
});

describe('vatBreakdown and the 2026 SFS recap (ADR 0401)', () => {
  it('receipt A: one item each at 23 %, 19 %, 5 % (reference §1.10)', () => {
    // 23 %: 3.69 × 23 / 123 = 84.87 / 123 = 0.69  → base 3.00
    // 19 %: 2.38 × 19 / 119 = 45.22 / 119 = 0.38  → base 2.00
    //  5 %: 2.10 ×  5 / 105 = 10.50 / 105 = 0.10  → base 2.00
    // recap: basic 3.00 / 0.69; reduced = 19 % + 5 % = base 4.00, VAT 0.48
    const rows = vatBreakdown([line('VAT_23', 369), line('VAT_19', 238), line('VAT_5', 210)], true);
    expect(rows.map((r) => [r.rate.name, r.grossCents, r.vatCents, r.baseCents])).toEqual([
      ['VAT_23', 369, 69, 300],
      ['VAT_19', 238, 38, 200],
      ['VAT_5', 210, 10, 200],
    ]);
    expect(sfsVatRecap(rows, true)).toEqual({
      TaxBaseBasic: '3.00',
      BasicVatAmount: '0.69',
      TaxBaseReduced: '4.00',
      ReducedVatAmount: '0.48',
    });
  });

  it('receipt B: discounts, vouchers, packaging, deposit and a refund reduce their own rate', () => {
    // 23 %: Pivo 6 × 1.59 = 9.54, discount −0.95 → 8.59; 8.59 × 23 / 123 = 197.57 / 123 = 1.6063 → 1.61, base 6.98
    // 19 %: refund −4.99; −4.99 × 19 / 119 = −94.81 / 119 = −0.7967 → −0.80, base −4.19
    //  5 %: Kniha 12.00, voucher −10.00 → 2.00; 2.00 × 5 / 105 = 0.0952 → 0.10, base 1.90
    //  0 %: packaging 0.90, returned −1.50, advance −2.00 → −2.60
    // recap: basic 6.98 / 1.61; reduced base −4.19 + 1.90 = −2.29, VAT −0.80 + 0.10 = −0.70; free −2.60
    // check: 6.98 + 1.61 − 2.29 − 0.70 − 2.60 = 3.00 = item sum
    const rows = vatBreakdown(
      [
        line('VAT_23', 954),
        line('VAT_0', 90),
        line('VAT_0', -150),
        line('VAT_5', 1200),
        line('VAT_5', -1000),
        line('VAT_23', -95),
        line('VAT_19', -499),
        line('VAT_0', -200),
      ],
      true,
    );
    expect(rows.map((r) => [r.rate.name, r.grossCents, r.vatCents, r.baseCents])).toEqual([
      ['VAT_23', 859, 161, 698],
      ['VAT_19', -499, -80, -419],
      ['VAT_5', 200, 10, 190],
      ['VAT_0', -260, 0, -260],
    ]);
    expect(sfsVatRecap(rows, true)).toEqual({
      TaxBaseBasic: '6.98',
      BasicVatAmount: '1.61',
      TaxBaseReduced: '-2.29',
      ReducedVatAmount: '-0.70',
      TaxFreeAmount: '-2.60',
    });
  });

  it('rounds once per rate, not per item, and only then sums 19 % and 5 %', () => {
    // three items of 0.10 @ 19 %: per item 0.10 × 19/119 = 0.016 → 0.02 each = 0.06 (wrong);
    // per rate 0.30 × 19 / 119 = 5.70 / 119 = 0.0479 → 0.05 (right), base 0.25
    // plus 0.10 @ 5 %: 0.10 × 5 / 105 = 0.0048 → 0.00, base 0.10
    // reduced: base 0.25 + 0.10 = 0.35, VAT 0.05 + 0.00 = 0.05
    const rows = vatBreakdown(
      [line('VAT_19', 10), line('VAT_19', 10), line('VAT_19', 10), line('VAT_5', 10)],
      true,
    );
    expect(sfsVatRecap(rows, true)).toEqual({ TaxBaseReduced: '0.35', ReducedVatAmount: '0.05' });
  });

  it('puts the pre-2025 20 % into basic and 10 % into reduced (official sample recap)', () => {
    // SFS samples priklad_*_20190131.xml: 150.00 @ 20 % + 87.23 @ 10 %
    // 20 %: 150.00 × 20 / 120 = 25.00, base 125.00; 10 %: 87.23 × 10 / 110 = 7.93, base 79.30
    const rows = vatBreakdown([line('VAT_20', 15000), line('VAT_10', 8723)], true);
    expect(sfsVatRecap(rows, true)).toEqual({
      TaxBaseBasic: '125.00',
      BasicVatAmount: '25.00',
      TaxBaseReduced: '79.30',
      ReducedVatAmount: '7.93',
    });
    // a refund of an old sale next to a 2026 sale: both rates land in "basic"
    // 23 %: 12.30 × 23/123 = 2.30, base 10.00; 20 %: −6.00 × 20/120 = −1.00, base −5.00
    const mixed = vatBreakdown([line('VAT_23', 1230), line('VAT_20', -600)], true);
    expect(sfsVatRecap(mixed, true)).toEqual({ TaxBaseBasic: '5.00', BasicVatAmount: '1.30' });
  });

  it('sends only TaxFreeAmount for 0 % only, and a rate group whose items net to zero as 0.00', () => {
    expect(sfsVatRecap(vatBreakdown([line('VAT_0', 500)], true), true)).toEqual({ TaxFreeAmount: '5.00' });
    expect(sfsVatRecap(vatBreakdown([line('VAT_23', 1000), line('VAT_23', -1000)], true), true)).toEqual({
      TaxBaseBasic: '0.00',
      BasicVatAmount: '0.00',
    });
  });

  it('a non-VAT-payer sends the whole sum as TaxFreeAmount and charges no VAT', () => {
    const rows = vatBreakdown([line('VAT_0', 1234), line('VAT_0', -34)], false);
    expect(rows).toEqual([{ rate: vatRateByName('VAT_0'), grossCents: 1200, vatCents: 0, baseCents: 1200 }]);
    expect(sfsVatRecap(rows, false)).toEqual({ TaxFreeAmount: '12.00' });
  });
});
