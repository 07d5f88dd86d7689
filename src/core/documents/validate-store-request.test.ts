import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import { formatSfsDateTime } from '../time.js';
import type { StoreDocumentInput } from './store-request.js';
import { CREATE_DATE, pd, sale, thrownBy } from './test-support.js';
import { EKASA_START, validateStoreRequest } from './validate-store-request.js';

const ctx = { createDate: CREATE_DATE, vatPayer: true };

function expectInvalid(body: StoreDocumentInput, field: string, context = ctx): void {
  const before = structuredClone(body);
  const error = thrownBy(() => validateStoreRequest(body, context));
  expect(error, `expected a 701 naming ${field}`).toBeInstanceOf(FiscalError);
  expect((error as FiscalError).resultCode).toBe(701);
  expect((error as FiscalError).details?.field).toBe(field);
  // nothing else happens on failure: not even the input is touched
  expect(body).toEqual(before);
}

const ref = 'O-544C525A6D5B47198C525A6D5BC';

describe('validateStoreRequest: every failure is a 701 naming the field (acceptance list)', () => {
  const cases: Array<[string, StoreDocumentInput, string]> = [
    ['VK only through /api/cash', pd({ type: 'VK' }), 'type'],
    ['unknown document type', pd({ type: 'XX' }), 'type'],
    ['PD without items (SFS -116)', pd({ documentEntries: [] }), 'documentEntries'],
    ['ND without items (SFS -116)', pd({ type: 'ND', documentEntries: null }), 'documentEntries'],
    ['UF without invoiceId (SFS -112)', { type: 'UF', amount: 10, payments: {} }, 'invoiceId'],
    ['UF with items (SFS -114)', pd({ type: 'UF', invoiceId: 'FA1' }), 'documentEntries'],
    ['invoiceId on a PD (SFS -115)', pd({ invoiceId: 'FA1' }), 'invoiceId'],
    [
      'invoiceId over 50 characters',
      { type: 'UF', amount: 10, payments: {}, invoiceId: 'F'.repeat(51) },
      'invoiceId',
    ],
    [
      'invoiceId not ASCII (SFS §3.1)',
      { type: 'UF', amount: 10, payments: {}, invoiceId: 'FA-č.1' },
      'invoiceId',
    ],
    ['paragonNumber without paragonDate (SFS -124)', pd({ paragonNumber: 3 }), 'paragonDate'],
    [
      'paragonDate without paragonNumber (SFS -125)',
      pd({ paragonDate: '01.03.2026 09:00:00' }),
      'paragonNumber',
    ],
    [
      'paragón on an ND (SFS -126)',
      pd({ type: 'ND', paragonNumber: 3, paragonDate: '01.03.2026 09:00:00' }),
      'paragonNumber',
    ],
    [
      'paragonDate in the future (SFS -103)',
      pd({ paragonNumber: 3, paragonDate: '02.03.2026 10:15:31' }),
      'paragonDate',
    ],
    [
      'paragonDate more than a year old',
      pd({ paragonNumber: 3, paragonDate: '01.03.2025 09:00:00' }),
      'paragonDate',
    ],
    ['paragonDate not a date', pd({ paragonNumber: 3, paragonDate: '2026-03-01' }), 'paragonDate'],
    [
      'paragonNumber not whole',
      pd({ paragonNumber: 1.5, paragonDate: '01.03.2026 09:00:00' }),
      'paragonNumber',
    ],
    [
      'more than 500 items',
      pd({
        amount: 501,
        documentEntries: Array.from({ length: 501 }, () => sale()),
        payments: { Cash: 501 },
      }),
      'documentEntries',
    ],
    ['empty name', pd({ documentEntries: [sale({ name: '', price: 10 })] }), 'documentEntries[0].name'],
    ['blank name', pd({ documentEntries: [sale({ name: '   ', price: 10 })] }), 'documentEntries[0].name'],
    [
      'name over 255 characters',
      pd({ documentEntries: [sale({ name: 'ž'.repeat(256), price: 10 })] }),
      'documentEntries[0].name',
    ],
    [
      'name with a control character',
      pd({ documentEntries: [sale({ name: 'a\u0007b', price: 10 })] }),
      'documentEntries[0].name',
    ],
    [
      'unit price with 7 decimals',
      pd({ documentEntries: [sale({ price: 10.0000001 })] }),
      'documentEntries[0].price',
    ],
    [
      'unit price over 10 000 000',
      pd({ documentEntries: [sale({ price: 10000000.01 })] }),
      'documentEntries[0].price',
    ],
    [
      'line total over 10 000 000',
      pd({ documentEntries: [sale({ price: 5000000, quantity: 3 })] }),
      'documentEntries[0].price',
    ],
    [
      'quantity with 5 decimals',
      pd({ documentEntries: [sale({ price: 10, quantity: 1.00001 })] }),
      'documentEntries[0].quantity',
    ],
    [
      'negative quantity',
      pd({ documentEntries: [sale({ price: -10, quantity: -1 })] }),
      'documentEntries[0].quantity',
    ],
    [
      'quantity over 10 000 000',
      pd({ documentEntries: [sale({ price: 0, quantity: 10000001 })] }),
      'documentEntries[0].quantity',
    ],
    [
      'negative SALE (SFS -127)',
      pd({ amount: -10, documentEntries: [sale({ price: -10 })] }),
      'documentEntries[0].price',
    ],
    [
      'positive DISCOUNT (SFS -128)',
      pd({ amount: 11, documentEntries: [sale({ price: 10 }), sale({ itemType: 'DISCOUNT', price: 1 })] }),
      'documentEntries[1].price',
    ],
    [
      'PACKING not at VAT_0',
      pd({
        amount: 10.15,
        documentEntries: [sale({ price: 10 }), sale({ itemType: 'PACKING', price: 0.15 })],
      }),
      'documentEntries[1].vatRate',
    ],
    [
      'PACKING_REFUND not at VAT_0',
      pd({
        amount: 9.85,
        documentEntries: [
          sale({ price: 10 }),
          sale({ itemType: 'PACKING_REFUND', price: -0.15, vatRate: 'VAT_19' }),
        ],
      }),
      'documentEntries[1].vatRate',
    ],
    [
      'VOUCHER without its SALE',
      pd({
        amount: 5,
        documentEntries: [sale({ price: 10 }), sale({ itemType: 'VOUCHER', price: -5, voucherNumber: 'P1' })],
      }),
      'documentEntries[1].voucherNumber',
    ],
    [
      'VOUCHER without a voucherNumber',
      pd({ amount: 5, documentEntries: [sale({ price: 10 }), sale({ itemType: 'VOUCHER', price: -5 })] }),
      'documentEntries[1].voucherNumber',
    ],
    [
      'SALE naming a voucher that is not on the document',
      pd({ documentEntries: [sale({ price: 10, voucherNumber: 'P1' })] }),
      'documentEntries[0].voucherNumber',
    ],
    [
      'VOUCHER at another rate than its SALE',
      pd({
        amount: 5,
        documentEntries: [
          sale({ price: 10, voucherNumber: 'P1' }),
          sale({ itemType: 'VOUCHER', price: -5, voucherNumber: 'P1', vatRate: 'VAT_19' }),
        ],
      }),
      'documentEntries[1].vatRate',
    ],
    [
      'voucherNumber on a DISCOUNT (SFS -131)',
      pd({
        amount: 9,
        documentEntries: [
          sale({ price: 10 }),
          sale({ itemType: 'DISCOUNT', price: -1, voucherNumber: 'P1' }),
        ],
      }),
      'documentEntries[1].voucherNumber',
    ],
    [
      'DISCOUNT at a rate nothing is sold at',
      pd({
        amount: 9,
        documentEntries: [sale({ price: 10 }), sale({ itemType: 'DISCOUNT', price: -1, vatRate: 'VAT_5' })],
      }),
      'documentEntries[1].vatRate',
    ],
    [
      'DISCOUNT taking its rate below zero (ADR 0430)',
      pd({
        amount: -4,
        documentEntries: [sale({ price: 1 }), sale({ itemType: 'DISCOUNT', price: -5 })],
      }),
      'documentEntries[1].price',
    ],
    [
      'DISCOUNT larger than its rate although the document stays positive (ADR 0430)',
      pd({
        amount: 6,
        documentEntries: [
          sale({ price: 10 }),
          sale({ price: 1, vatRate: 'VAT_5' }),
          sale({ itemType: 'DISCOUNT', price: -5, vatRate: 'VAT_5' }),
        ],
      }),
      'documentEntries[2].price',
    ],
    [
      'VOUCHER larger than the SALE it pays (ADR 0430)',
      pd({
        amount: -5,
        documentEntries: [
          sale({ price: 5, voucherNumber: 'P1' }),
          sale({ itemType: 'VOUCHER', price: -10, voucherNumber: 'P1' }),
        ],
      }),
      'documentEntries[1].price',
    ],
    [
      'VOUCHER and DISCOUNT together beyond the sale at their rate (ADR 0430)',
      pd({
        amount: -0.01,
        documentEntries: [
          sale({ price: 5, voucherNumber: 'P1' }),
          sale({ itemType: 'DISCOUNT', price: -1.01 }),
          sale({ itemType: 'VOUCHER', price: -4, voucherNumber: 'P1' }),
        ],
      }),
      'documentEntries[2].price',
    ],
    [
      'DEPOSIT at a taxed rate nothing is sold at (ADR 0430)',
      pd({
        amount: -4,
        documentEntries: [sale({ price: 1 }), sale({ itemType: 'DEPOSIT', price: -5, vatRate: 'VAT_19' })],
      }),
      'documentEntries[1].vatRate',
    ],
    [
      'REFUND without referenceDocumentId (SFS -117)',
      pd({ amount: -10, documentEntries: [sale({ itemType: 'REFUND', price: -10 })] }),
      'documentEntries[0].referenceDocumentId',
    ],
    [
      'UPDATE without referenceDocumentId (SFS -117)',
      pd({ amount: -10, documentEntries: [sale({ itemType: 'UPDATE', price: -10 })] }),
      'documentEntries[0].referenceDocumentId',
    ],
    [
      'referenceDocumentId on a SALE (SFS -118)',
      pd({ documentEntries: [sale({ price: 10, referenceDocumentId: ref })] }),
      'documentEntries[0].referenceDocumentId',
    ],
    [
      'referenceDocumentId over 44 characters',
      pd({
        amount: -10,
        documentEntries: [sale({ itemType: 'REFUND', price: -10, referenceDocumentId: 'O'.repeat(45) })],
      }),
      'documentEntries[0].referenceDocumentId',
    ],
    [
      'specialRegulation with VAT_23 (SFS -130)',
      pd({ documentEntries: [sale({ price: 10, specialRegulation: 'PDP' })] }),
      'documentEntries[0].specialRegulation',
    ],
    [
      'unknown specialRegulation',
      pd({ documentEntries: [sale({ price: 10, vatRate: 'VAT_0', specialRegulation: 'XYZ' })] }),
      'documentEntries[0].specialRegulation',
    ],
    ['payments missing (ADR 0008 §9)', pd({ payments: undefined }), 'payments'],
    ['payments null (ADR 0008 §9)', pd({ payments: null }), 'payments'],
    ['negative payment', pd({ payments: { Cash: 12, Change: -2 } }), 'payments.Change'],
    ['payment with 3 decimals', pd({ payments: { Card: 10.001 } }), 'payments.Card'],
    ['customer id without type (SFS -122)', pd({ customer: { id: '12345678' } }), 'customer.customerIdType'],
    ['customer type without id (SFS -122)', pd({ customer: { customerIdType: 'ICO' } }), 'customer.id'],
    [
      'customer on an ND (SFS -123)',
      pd({ type: 'ND', customer: { id: '12345678', customerIdType: 'ICO' } }),
      'customer',
    ],
    [
      'customer id not alphanumeric ASCII',
      pd({ customer: { id: 'ľ12345', customerIdType: 'INE' } }),
      'customer.id',
    ],
    [
      'unknown customer type',
      pd({ customer: { id: '1', customerIdType: 'PASS' } }),
      'customer.customerIdType',
    ],
    [
      'seller id without type (SFS -129)',
      pd({ documentEntries: [sale({ price: 10, seller: { id: '2020345678' } })] }),
      'documentEntries[0].seller.sellerIdType',
    ],
    [
      'seller type not DIC/IC_DPH',
      pd({ documentEntries: [sale({ price: 10, seller: { id: '2020345678', sellerIdType: 'ICO' } })] }),
      'documentEntries[0].seller.sellerIdType',
    ],
    [
      'unknown vatRate',
      pd({ documentEntries: [sale({ price: 10, vatRate: 'VAT_21' })] }),
      'documentEntries[0].vatRate',
    ],
    [
      'unknown itemType',
      pd({ documentEntries: [sale({ price: 10, itemType: 'GIFT' })] }),
      'documentEntries[0].itemType',
    ],
    [
      'old rate VAT_20 on a SALE',
      pd({ documentEntries: [sale({ price: 10, vatRate: 'VAT_20' })] }),
      'documentEntries[0].vatRate',
    ],
    [
      'old rate VAT_10 on a DISCOUNT',
      pd({
        amount: 9,
        documentEntries: [sale({ price: 10 }), sale({ itemType: 'DISCOUNT', price: -1, vatRate: 'VAT_10' })],
      }),
      'documentEntries[1].vatRate',
    ],
    ['externalId over 50 characters', pd({ externalId: 'x'.repeat(51) }), 'externalId'],
    [
      'item externalId over 50 characters',
      pd({ documentEntries: [sale({ price: 10, externalId: 'x'.repeat(51) })] }),
      'documentEntries[0].externalId',
    ],
    ['header over 500 characters', pd({ header: 'h'.repeat(501) }), 'header'],
    ['footer with a control character', pd({ footer: 'Ďakujeme\u001b' }), 'footer'],
    ['exception not a boolean', pd({ exception: 'yes' as unknown as boolean }), 'exception'],
    [
      'amount off by 0.03 (10.00 for 10.03)',
      pd({ amount: 10, documentEntries: [sale({ price: 10.03 })] }),
      'amount',
    ],
    ['amount 10.03 for 10.00', pd({ amount: 10.03 }), 'amount'],
    ['amount with 3 decimals', pd({ amount: 10.001 }), 'amount'],
    [
      'amount is a float artefact (0.1 + 0.2)',
      pd({ amount: 0.1 + 0.2, documentEntries: [sale({ price: 0.3 })] }),
      'amount',
    ],
    ['amount over 10 000 000', { type: 'UF', amount: 10000000.01, invoiceId: 'FA1', payments: {} }, 'amount'],
    ['UF paying 0', { type: 'UF', amount: 0, invoiceId: 'FA1', payments: {} }, 'amount'],
  ];

  it.each(cases)('%s', (_name, body, field) => {
    expectInvalid(body, field);
  });

  it('has at least the 20 failures the acceptance asks for', () => {
    expect(new Set(cases.map(([, , field]) => field.replace(/\[\d+\]/g, '[]'))).size).toBeGreaterThanOrEqual(
      20,
    );
  });

  it('a paragón cannot predate the eKasa start (SFS -106)', () => {
    expect(formatSfsDateTime(EKASA_START)).toBe('2019-04-01T00:00:00+02:00');
    const early = { createDate: new Date('2019-06-01T10:00:00Z'), vatPayer: true };
    expectInvalid(pd({ paragonNumber: 1, paragonDate: '31.03.2019 23:59:59' }), 'paragonDate', early);
    expect(
      validateStoreRequest(pd({ paragonNumber: 1, paragonDate: '01.04.2019 00:00:00' }), early).paragon
        ?.number,
    ).toBe(1);
  });

  it('a VAT recap out of the SFS amount range is 701 although the item sum is in it (SFS -2)', () => {
    // Review s12 #5: 2 × 10 000 000 at 23 % and 2 × −10 000 000 at 19 %: amount 0.00, but
    // TaxBaseBasic 16 260 162.60 and TaxBaseReduced −16 806 722.69.
    const big = (price: number, vatRate: string, itemType = 'SALE') =>
      sale({ price, vatRate, itemType, ...(itemType === 'REFUND' ? { referenceDocumentId: ref } : {}) });
    const body = pd({
      amount: 0,
      payments: { Karta: 0 },
      documentEntries: [
        big(10000000, 'VAT_23'),
        big(10000000, 'VAT_23'),
        big(-10000000, 'VAT_19', 'REFUND'),
        big(-10000000, 'VAT_19', 'REFUND'),
      ],
    });
    expectInvalid(body, 'documentEntries');
    expect((thrownBy(() => validateStoreRequest(body, ctx)) as Error).message).toContain(
      'the VAT recap TaxBaseBasic (VAT_23, VAT_20 together) comes to 16260162.60, outside the SFS amount range',
    );
    // At the edge of the range it passes: 10 000 000 at 0 % alone is TaxFreeAmount 10000000.00.
    const edge = pd({ amount: 10000000, documentEntries: [big(10000000, 'VAT_0')] });
    expect(validateStoreRequest(edge, ctx).itemSumCents).toBe(1_000_000_000);
  });

  it('a non-VAT-payer merchant uses VAT_0 only', () => {
    expectInvalid(pd(), 'documentEntries[0].vatRate', { createDate: CREATE_DATE, vatPayer: false });
    const ok = validateStoreRequest(pd({ documentEntries: [sale({ price: 10, vatRate: 'VAT_0' })] }), {
      createDate: CREATE_DATE,
      vatPayer: false,
    });
    expect(ok.items[0]!.vatRate.name).toBe('VAT_0');
  });
});

describe('validateStoreRequest: accepted requests', () => {
  it('reads a PD with names, labels, SFS letters and nulls', () => {
    const v = validateStoreRequest(
      pd({
        amount: 87.12,
        documentEntries: [
          {
            name: 'Tovar 2',
            price: 87.123,
            quantity: 1,
            vatRate: '23%',
            itemType: 'K',
            externalId: null,
            seller: {},
          },
        ],
        payments: { Card: 87.12 },
        header: '',
        footer: null,
        externalId: '03/02',
        customer: { id: '2020345678', type: 'DIC' },
      }),
      ctx,
    );
    expect(v.type).toBe('PD');
    expect(v.amountCents).toBe(8712);
    expect(v.items[0]).toMatchObject({
      name: 'Tovar 2',
      unitPriceMicros: 87_123_000n,
      quantityUnits: 10_000n,
      totalCents: 8712,
    });
    expect(v.items[0]!.itemType.api).toBe('SALE');
    expect(v.items[0]!.vatRate.name).toBe('VAT_23');
    expect(v.items[0]!.seller).toBeUndefined();
    expect(v.header).toBeUndefined();
    expect(v.customer).toEqual({ id: '2020345678', type: 'DIC' });
    expect(v.payments).toEqual([{ name: 'Card', amountCents: 8712 }]);
    expect(v.externalId).toBe('03/02');
  });

  it('mixes VAT with vouchers, packaging, a discount, an advance and a refund with reference', () => {
    const v = validateStoreRequest(
      pd({
        amount: 3,
        documentEntries: [
          sale({ name: 'Pivo', price: 1.59, quantity: 6 }),
          sale({ name: 'Fľaša', itemType: 'PACKING', price: 0.15, quantity: 6, vatRate: 'VAT_0' }),
          sale({
            name: 'Vrátená fľaša',
            itemType: 'PACKING_REFUND',
            price: -0.15,
            quantity: 10,
            vatRate: 'VAT_0',
          }),
          sale({ name: 'Kniha', price: 12, vatRate: 'VAT_5', voucherNumber: 'V-1' }),
          sale({ name: 'Poukaz', itemType: 'VOUCHER', price: -10, vatRate: 'VAT_5', voucherNumber: 'V-1' }),
          sale({ name: 'Zľava', itemType: 'DISCOUNT', price: -0.95 }),
          sale({
            name: 'Vrátený tovar',
            itemType: 'REFUND',
            price: -4.99,
            vatRate: 'VAT_19',
            referenceDocumentId: ref,
          }),
          sale({ name: 'Záloha', itemType: 'DEPOSIT', price: -2, vatRate: 'VAT_0' }),
        ],
        payments: { Cash: 3 },
      }),
      ctx,
    );
    expect(v.items.map((i) => [i.itemType.sfs, i.totalCents])).toEqual([
      ['K', 954],
      ['K', 90],
      ['VO', -150],
      ['K', 1200],
      ['VP', -1000],
      ['Z', -95],
      ['V', -499],
      ['OZ', -200],
    ]);
    expect(v.itemSumCents).toBe(300);
    expect(v.roundingCents).toBe(0);
  });

  it('allows the old rates on refunds and corrections of pre-2025 sales', () => {
    const v = validateStoreRequest(
      pd({
        amount: -15,
        documentEntries: [
          sale({ itemType: 'REFUND', price: -10, vatRate: 'VAT_20', referenceDocumentId: ref }),
          sale({ itemType: 'UPDATE', price: -5, vatRate: 'VAT_10', referenceDocumentId: ref }),
        ],
        payments: { Cash: 0 },
      }),
      ctx,
    );
    expect(v.items.map((i) => i.vatRate.name)).toEqual(['VAT_20', 'VAT_10']);
    expect(v.amountCents).toBe(-1500);
  });

  it('accepts discounts and vouchers down to zero at their rate, and advances as ADR 0430 allows', () => {
    const accepted = (amount: number, documentEntries: ReturnType<typeof sale>[]) =>
      validateStoreRequest(pd({ amount, documentEntries, payments: { Cash: Math.max(amount, 0) } }), ctx);
    // a discount and a voucher together exactly as large as the sale at their rate
    expect(
      accepted(0, [
        sale({ price: 5, voucherNumber: 'P1' }),
        sale({ itemType: 'VOUCHER', price: -3, voucherNumber: 'P1' }),
        sale({ itemType: 'DISCOUNT', price: -2 }),
      ]).itemSumCents,
    ).toBe(0);
    // an advance at 0 % reduces no VAT: it may exceed the sale, and needs no sale at 0 %
    expect(
      accepted(-4, [sale({ price: 1 }), sale({ itemType: 'DEPOSIT', price: -5, vatRate: 'VAT_0' })])
        .itemSumCents,
    ).toBe(-400);
    // an advance at the sale's rate reduces that rate (the vendor's case: 120 − 60 at one rate)
    expect(accepted(60, [sale({ price: 120 }), sale({ itemType: 'DEPOSIT', price: -60 })]).itemSumCents).toBe(
      6000,
    );
    // a refund document is negative on purpose; a discount on its own sale line is measured against that line only
    expect(
      accepted(-10, [
        sale({ itemType: 'REFUND', price: -10, referenceDocumentId: ref }),
        sale({ price: 2 }),
        sale({ itemType: 'DISCOUNT', price: -2 }),
      ]).itemSumCents,
    ).toBe(-1000);
    // PACKING is sold at 0 % (SFS K): a discount at 0 % may reduce it to zero
    expect(
      accepted(0, [
        sale({ itemType: 'PACKING', price: 0.15, vatRate: 'VAT_0' }),
        sale({ itemType: 'DISCOUNT', price: -0.15, vatRate: 'VAT_0' }),
      ]).itemSumCents,
    ).toBe(0);
  });

  it('accepts a UF: the amount is the invoice payment, no items', () => {
    const v = validateStoreRequest(
      { type: 'UF', amount: 56.75, invoiceId: 'FA00001', payments: { Transfer: 56.75 } },
      ctx,
    );
    expect(v).toMatchObject({
      type: 'UF',
      amountCents: 5675,
      itemSumCents: 0,
      roundingCents: 0,
      items: [],
      invoiceId: 'FA00001',
    });
  });

  it('accepts a paragón in both date formats, truncated to whole seconds', () => {
    const a = validateStoreRequest(pd({ paragonNumber: 12, paragonDate: '01.03.2026 18:30:00' }), ctx);
    expect(a.paragon).toEqual({ number: 12, issueDate: new Date('2026-03-01T17:30:00Z') });
    const b = validateStoreRequest(
      pd({ paragonNumber: 12, paragonDate: '2026-03-01T18:30:00.900+01:00' }),
      ctx,
    );
    expect(b.paragon?.issueDate.toISOString()).toBe('2026-03-01T17:30:00.000Z');
  });

  it('accepts a voucher at the SALE rate and keeps the SALE voucher reference', () => {
    const v = validateStoreRequest(
      pd({
        amount: 5,
        documentEntries: [
          sale({ price: 10, voucherNumber: 'P1' }),
          sale({ itemType: 'VP', price: -5, voucherNumber: 'P1' }),
        ],
      }),
      ctx,
    );
    expect(v.items.map((i) => [i.itemType.api, i.voucherNumber])).toEqual([
      ['SALE', 'P1'],
      ['VOUCHER', 'P1'],
    ]);
  });
});

describe('amount and cash rounding (ADR 0402)', () => {
  const withSum = (sum: number, amount: number) =>
    validateStoreRequest(
      pd({ amount, documentEntries: [sale({ price: sum })], payments: { Cash: amount } }),
      ctx,
    );

  it('accepts the exact sum', () => {
    expect(withSum(10.03, 10.03).roundingCents).toBe(0);
  });

  it('accepts the sum rounded to 5 cents: 9.98 → 10.00, 10.02 → 10.00, 10.03 → 10.05', () => {
    expect(withSum(9.98, 10).roundingCents).toBe(2);
    expect(withSum(10.02, 10).roundingCents).toBe(-2);
    expect(withSum(10.03, 10.05).roundingCents).toBe(2);
    expect(withSum(10.07, 10.05).roundingCents).toBe(-2);
  });

  it('rounds 1 or 2 cents up to 5 cents', () => {
    expect(withSum(0.01, 0.05).roundingCents).toBe(4);
    expect(withSum(0.02, 0.05).roundingCents).toBe(3);
  });

  it('rounds refunds symmetrically', () => {
    const v = validateStoreRequest(
      pd({
        amount: -10,
        documentEntries: [sale({ itemType: 'REFUND', price: -9.98, referenceDocumentId: ref })],
      }),
      ctx,
    );
    expect(v.roundingCents).toBe(-2);
  });

  it('refuses any other difference, naming amount', () => {
    expectInvalid(pd({ amount: 10, documentEntries: [sale({ price: 10.03 })] }), 'amount');
    expectInvalid(pd({ amount: 9.95, documentEntries: [sale({ price: 9.98 })] }), 'amount');
    expectInvalid(pd({ amount: 10.01, documentEntries: [sale({ price: 9.98 })] }), 'amount');
    expectInvalid(pd({ amount: 0, documentEntries: [sale({ price: 0.02 })] }), 'amount');
  });
});
