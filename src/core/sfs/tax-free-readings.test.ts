import { describe, expect, it } from 'vitest';
import { checkReceiptContent } from './content-rules.js';
import type { SfsItem, SfsReceiptData } from './message.js';
import { computeVatRecap } from './vat-recap.js';

/**
 * ADR 0429: TaxFreeAmount read two ways. kasa sends every 0 % item (the spec's "sum of 0-rate
 * items"); a certified register's published messages leave out returned packaging (VO) and
 * deducted advances (OZ), and send zero pairs for groups without items. The simulator accepts
 * both, and nothing else.
 */
const k = (name: string, price: string, rate: string): SfsItem => ({
  ItemType: 'K',
  Name: name,
  Quantity: '1.0000',
  VatRate: rate,
  Price: price,
});
const typed = (type: SfsItem['ItemType'], name: string, price: string): SfsItem => ({
  ...k(name, price, '0.00'),
  ItemType: type,
});

/** A VAT payer's 2024 or 2026 PD with exactly these recap attributes. */
function pd(
  created: string,
  items: SfsItem[],
  amount: string,
  recap: Record<string, string>,
): SfsReceiptData {
  return {
    ReceiptType: 'PD',
    Dic: '1234567890',
    IcDph: 'SK1234567890',
    Ico: '76543210',
    CashRegisterCode: '88812345678900001',
    IssueDate: created,
    CreateDate: created,
    ReceiptNumber: '284',
    Paragon: 'false',
    Amount: amount,
    Items: items,
    ...recap,
  } as SfsReceiptData;
}

const beer2024 = [k('Ležiak 12', '1.20', '20.00'), typed('VO', 'Vratná fľaša', '-0.13')];
const advance2026 = [k('Kuchyňa', '120.00', '23.00'), typed('OZ', 'Záloha', '-60.00')];

describe('TaxFreeAmount read both ways (ADR 0429)', () => {
  it('the readings differ for buy-back and advances', () => {
    const opts = { regime: '2026', vatPayer: true } as const;
    expect(computeVatRecap(advance2026, opts).TaxFreeAmount).toBe('-60.00');
    expect(
      computeVatRecap(advance2026, { ...opts, taxFree: 'without-buy-back-and-advances' }).TaxFreeAmount,
    ).toBeUndefined();
  });

  it("accepts a certified register's beer with a bottle bought back (TaxFreeAmount 0.00, 2024)", () => {
    const data = pd('2024-10-16T18:14:31+02:00', beer2024, '1.07', {
      TaxBaseBasic: '1.00',
      BasicVatAmount: '0.20',
      TaxFreeAmount: '0.00',
    });
    expect(checkReceiptContent(data, '2019')).toBeUndefined();
  });

  it('accepts kasa’s own reading of the same document', () => {
    const data = pd('2024-10-16T18:14:31+02:00', beer2024, '1.07', {
      TaxBaseBasic: '1.00',
      BasicVatAmount: '0.20',
      TaxFreeAmount: '-0.13',
    });
    expect(checkReceiptContent(data, '2019')).toBeUndefined();
  });

  it('accepts zero pairs for a group without items, and a buy-back-only document either way', () => {
    const zeroPairs = pd('2024-10-16T18:14:31+02:00', beer2024, '1.07', {
      TaxBaseBasic: '1.00',
      BasicVatAmount: '0.20',
      TaxBaseReduced: '0.00',
      ReducedVatAmount: '0.00',
      TaxFreeAmount: '0.00',
    });
    expect(checkReceiptContent(zeroPairs, '2019')).toBeUndefined();
    const bottles = [typed('VO', 'Vratná fľaša', '-1.30')];
    expect(
      checkReceiptContent(
        pd('2024-10-16T18:14:31+02:00', bottles, '-1.30', { TaxFreeAmount: '0.00' }),
        '2019',
      ),
    ).toBeUndefined();
    expect(
      checkReceiptContent(
        pd('2024-10-16T18:14:31+02:00', bottles, '-1.30', { TaxFreeAmount: '-1.30' }),
        '2019',
      ),
    ).toBeUndefined();
  });

  it('accepts a 0 % advance deducted in 2026 either way', () => {
    const recap = { TaxBaseBasic: '97.56', BasicVatAmount: '22.44' };
    const created = '2026-03-02T10:00:00+01:00';
    expect(checkReceiptContent(pd(created, advance2026, '60.00', recap), '2026')).toBeUndefined();
    expect(
      checkReceiptContent(pd(created, advance2026, '60.00', { ...recap, TaxFreeAmount: '-60.00' }), '2026'),
    ).toBeUndefined();
  });

  it('still refuses any other TaxFreeAmount, and a non-zero group without items', () => {
    const created = '2026-03-02T10:00:00+01:00';
    const recap = { TaxBaseBasic: '97.56', BasicVatAmount: '22.44' };
    expect(
      checkReceiptContent(pd(created, advance2026, '60.00', { ...recap, TaxFreeAmount: '-30.00' }), '2026'),
    ).toMatchObject({
      code: -2,
      detail: expect.stringContaining('TaxFreeAmount is -30.00, the items give -60.00'),
    });
    expect(
      checkReceiptContent(
        pd(created, advance2026, '60.00', { ...recap, TaxBaseReduced: '0.10', ReducedVatAmount: '0.00' }),
        '2026',
      ),
    ).toMatchObject({ code: -2 });
  });
});
