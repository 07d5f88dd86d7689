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
    expect(s.setAside).toBe(0);
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
      { name: 'Hotovosť', totalCents: 1230 - 250, changeCents: 0, netCents: 1230 - 250, cash: true },
      { name: 'Karta', totalCents: 5000, changeCents: 0, netCents: 5000, cash: false },
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

  it('a document set aside for the tax office (ADR 0711) is not valid: counted, shown as set aside, in no sum', () => {
    const valid = doc('PD', '5.00', { items: [['23.00', '5.00']], payments: [['Hotovosť', 500]] });
    const s = dailySummary(
      [
        valid,
        doc('PD', '7.00', { items: [['23.00', '7.00']], payments: [['Hotovosť', 700]], state: 'set-aside' }),
        doc('UF', '9.00', { payments: [['Karta', 900]], state: 'set-aside' }),
        doc('PD', '3.00', { items: [['23.00', '3.00']], payments: [['Karta', 300]], state: 'stuck' }),
      ],
      CASH,
    );
    expect(s.counts).toEqual({ PD: 3, UF: 1, ND: 0, VK: 0, VY: 0, total: 4 });
    expect(s.setAside).toBe(2);
    expect(s.notValid).toBe(1);
    expect(s.turnoverCents).toBe(500);
    expect(s.sales).toEqual({ count: 1, totalCents: 500 });
    expect(s.invoicePayments).toEqual({ count: 0, totalCents: 0 });
    expect(s.vatTotal.grossCents).toBe(500);
    expect(s.payments).toEqual([
      { name: 'Hotovosť', totalCents: 500, changeCents: 0, netCents: 500, cash: true },
    ]);
    expect(s.cashInDrawerCents).toBe(500);
    const text = summaryText(s, undefined, { from: '2026-03-02', to: '2026-03-02', printedAt: 'x' }, 48);
    expect(text).toMatch(/odložené pre daňový úrad\)\s+2$/m);
    expect(text).toMatch(/čakajú na opravu\)\s+1$/m);
  });

  it('per payment: received, change given and net; the nets add up to the turnover, cash nets to the drawer', () => {
    // 39.26 paid 28.10 in cash and 12.01 by card: 0.85 change, given in cash.
    const s = dailySummary(
      [
        doc('PD', '39.26', {
          items: [['23.00', '39.26']],
          payments: [
            ['Hotovosť', 2810],
            ['Karta', 1201],
          ],
        }),
        // Paid only by card, 2.00 over: the change cannot come from a cash payment, so the card's.
        doc('PD', '8.00', { items: [['23.00', '8.00']], payments: [['Karta', 1000]] }),
        doc('PD', '-1.50', { items: [['23.00', '-1.50']], payments: [['Hotovosť', 150]] }),
      ],
      CASH,
    );
    expect(s.payments).toEqual([
      { name: 'Hotovosť', totalCents: 2810 - 150, changeCents: 85, netCents: 2725 - 150, cash: true },
      { name: 'Karta', totalCents: 1201 + 1000, changeCents: 200, netCents: 1201 + 800, cash: false },
    ]);
    expect(s.payments.reduce((a, p) => a + p.netCents, 0)).toBe(s.turnoverCents);
    expect(s.turnoverCents).toBe(3926 + 800 - 150);
    expect(s.cashInDrawerCents).toBe(s.payments.filter((p) => p.cash).reduce((a, p) => a + p.netCents, 0));
    const text = summaryText(s, undefined, { from: '2026-03-02', to: '2026-03-02', printedAt: 'x' }, 42);
    expect(text).toMatch(/^ {2}Hotovosť\s+26\.60 EUR$/m);
    expect(text).toMatch(/^ {4}vydané \(výdavok\)\s+-0\.85 EUR$/m);
    expect(text).toMatch(/^ {4}netto\s+25\.75 EUR$/m);
    expect(text).toMatch(/^Platby netto spolu\s+45\.76 EUR$/m);
  });

  it('on 58 mm paper (32 characters) wraps rows that do not fit: no line longer, every label whole', () => {
    const s = dailySummary(
      [
        doc('PD', '1234567.89', {
          items: [
            ['23.00', '1000000.00'],
            ['5.00', '234567.89'],
          ],
          payments: [
            ['Hotovosť', 100_000_050],
            ['Platobná karta zákazníka', 23_456_789],
          ],
        }),
        doc('PD', '-9876.54', { items: [['23.00', '-9876.54']], payments: [['Hotovosť', 987654]] }),
        doc('UF', '2345678.90', { payments: [['Karta', 234567890]] }),
        doc('VK', '1000000.00'),
        doc('VY', '999999.99'),
        doc('PD', '1.00', { items: [['23.00', '1.00']], payments: [['Hotovosť', 100]], state: 'set-aside' }),
        doc('PD', '1.00', { items: [['23.00', '1.00']], payments: [['Hotovosť', 100]], state: 'stuck' }),
      ],
      CASH,
    );
    const text = summaryText(
      s,
      {
        tenderName: 'QR platba',
        tenderCents: 123456789,
        usedCents: 0,
        paidNotUsedCents: 123456789,
        lateCents: 123456789,
        mismatchCents: 123456789,
      },
      { from: '2026-01-01', to: '2026-12-31', printedAt: '31.12.2026 20:00:00' },
      32,
    );
    const lines = text.split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(32);
    const flat = text.replace(/\s+/g, ' ');
    for (const label of [
      'neplatné (čakajú na opravu)',
      'neplatné (odložené pre daňový úrad)',
      'úhrady faktúr (1)',
      'na dokladoch (QR platba)',
      'zaplatené, nepoužité',
      'Platobná karta zákazníka',
      'vydané (výdavok)',
      'Hotovosť v pokladni',
    ]) {
      expect(flat, label).toContain(` ${label} `);
    }
    // A VAT row that does not fit goes under its whole label, one value a row.
    const at = lines.indexOf('23 %');
    expect(at, text).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 4)).toEqual([
      expect.stringMatching(/^ {2}základ +804978\.42$/),
      expect.stringMatching(/^ {2}DPH +185145\.04$/),
      expect.stringMatching(/^ {2}spolu +990123\.46$/),
    ]);
    // Amounts stay whole.
    expect(flat).toContain(' 2345678.90 EUR');
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
