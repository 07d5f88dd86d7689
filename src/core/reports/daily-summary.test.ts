import { describe, expect, it } from 'vitest';
import type { IndexedDocument, SendState } from '../ports/journal-index.js';
import { dailySummary } from './daily-summary.js';
import { summaryText } from './summary-text.js';

let no = 0;
function doc(
  type: 'PD' | 'UF' | 'ND' | 'VK' | 'VY',
  amount: string,
  options: {
    items?: Array<[string, string]>;
    payments?: Array<[string, number]>;
    rounding?: number;
    state?: SendState;
  } = {},
): IndexedDocument {
  no++;
  return {
    recordNo: no,
    sendState: options.state ?? 'online',
    sendingCount: 1,
    printState: 'printed',
    document: {
      documentNo: no,
      documentNumber: `202603/${no}`,
      roundingCents: options.rounding ?? 0,
      payments: (options.payments ?? []).map(([name, amountCents]) => ({ name, amountCents })),
      sfs: {
        ReceiptType: type,
        Amount: amount,
        IcDph: 'SK2021000003',
        ...(options.items
          ? { Items: options.items.map(([VatRate, Price]) => ({ VatRate, Price, Name: 'x' })) }
          : {}),
      },
    },
  } as unknown as IndexedDocument;
}

const CASH = ['Hotovosť', 'Cash'];

describe('daily summary (ADR 1006)', () => {
  it('sums sales, refunds, invoices, VAT per rate, payments, deposits, withdrawals and the drawer', () => {
    const docs = [
      doc('PD', '12.30', {
        items: [
          ['23.00', '10.00'],
          ['5.00', '2.32'],
        ],
        payments: [['Hotovosť', 1230]],
        rounding: -2,
      }),
      doc('PD', '-2.50', { items: [['23.00', '-2.50']], payments: [['Hotovosť', 250]] }),
      doc('UF', '50.00', { payments: [['Karta', 5000]] }),
      doc('VK', '100.00'),
      // SFS Amount of a withdrawal is positive (ADR 0405)
      doc('VY', '40.00'),
      doc('ND', '9.99', { items: [['23.00', '9.99']], payments: [['Hotovosť', 999]] }),
      doc('PD', '7.00', { items: [['23.00', '7.00']], payments: [['Hotovosť', 700]], state: 'stuck' }),
    ];
    const s = dailySummary(docs, CASH);
    expect(s.counts).toEqual({ PD: 3, UF: 1, ND: 1, VK: 1, VY: 1, total: 7 });
    expect(s.notValid).toBe(1);
    expect(s.turnoverCents).toBe(1230 - 250 + 5000);
    expect(s.sales).toEqual({ count: 1, totalCents: 1230 });
    expect(s.refunds).toEqual({ count: 1, totalCents: -250 });
    expect(s.invoicePayments).toEqual({ count: 1, totalCents: 5000 });
    expect(s.roundingCents).toBe(-2);
    // 23 %: 10.00 − 2.50 = 7.50 gross; per document VAT 1.87 and −0.47 (each rounded once per rate)
    expect(s.vatRates).toEqual([
      { title: 'VAT_23', grossCents: 750, vatCents: 187 - 47, baseCents: 750 - 140 },
      { title: 'VAT_5', grossCents: 232, vatCents: 11, baseCents: 221 },
    ]);
    expect(s.vatTotal).toEqual({ grossCents: 982, vatCents: 151, baseCents: 831 });
    expect(s.payments).toEqual([
      { name: 'Hotovosť', totalCents: 1230 - 250, cash: true },
      { name: 'Karta', totalCents: 5000, cash: false },
    ]);
    expect(s.deposits).toEqual({ count: 1, totalCents: 10000 });
    expect(s.withdrawals).toEqual({ count: 1, totalCents: 4000 });
    expect(s.cashInDrawerCents).toBe(10000 - 4000 + 1230 - 250);
  });

  it('cash handed over beyond the amount is change, not drawer money; a refund paid back with zeros counts whole', () => {
    const s = dailySummary(
      [
        doc('PD', '7.45', { items: [['23.00', '7.45']], payments: [['Hotovosť', 1000]] }),
        doc('PD', '10.00', {
          items: [['23.00', '10.00']],
          payments: [
            ['Karta', 400],
            ['cash ', 1000],
          ],
        }),
        doc('PD', '-3.00', { items: [['23.00', '-3.00']], payments: [['Hotovosť', 0]] }),
      ],
      CASH,
    );
    expect(s.cashInDrawerCents).toBe(745 + 600 - 300);
    expect(s.payments.find((p) => p.name === 'Hotovosť')?.totalCents).toBe(1000 - 300);
    expect(s.payments.find((p) => p.name === 'cash ')?.cash).toBe(true);
  });

  it('prints at the printer width, Slovak, without a document number', () => {
    const s = dailySummary(
      [doc('PD', '1.00', { items: [['23.00', '1.00']], payments: [['Hotovosť', 100]] })],
      CASH,
    );
    for (const width of [32, 48]) {
      const text = summaryText(
        s,
        {
          tenderName: 'QR platba',
          tenderCents: 1250,
          usedCents: 1250,
          paidNotUsedCents: 0,
          lateCents: 0,
          mismatchCents: 300,
        },
        { from: '2026-03-02', to: '2026-03-02', printedAt: '02.03.2026 20:00:00' },
        width,
      );
      expect(text).toContain('QR platby');
      expect(text).toContain('3.00 EUR');
      const lines = text.split('\n');
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
      expect(text).toContain('PREHĽAD TRŽBY');
      expect(text).toContain('Hotovosť v pokladni');
      expect(text).toContain('1.00 EUR');
    }
  });
});
