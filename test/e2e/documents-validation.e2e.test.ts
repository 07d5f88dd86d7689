import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const sale = (over: Record<string, unknown> = {}) => ({
  name: 'Káva',
  price: 2.5,
  quantity: 1,
  vatRate: 'VAT_23',
  itemType: 'SALE',
  ...over,
});
const withItems = (items: unknown[], amount = 2.5) =>
  pd({ documentEntries: items, amount, payments: { Hotovosť: Math.max(amount, 0) } });

/** [what, body, field named in the answer] */
const CASES: Array<[string, Record<string, unknown>, string]> = [
  ['type missing', pd({ type: undefined }), 'type'],
  ['VK through document/store', pd({ type: 'VK' }), 'type'],
  ['unknown type', pd({ type: 'XX' }), 'type'],
  ['amount missing', pd({ amount: undefined }), 'amount'],
  ['amount differs from the items', pd({ amount: 9.99 }), 'amount'],
  ['payments missing (ADR 0008 §9)', pd({ payments: undefined }), 'payments'],
  ['negative payment', pd({ payments: { Hotovosť: -1 } }), 'payments.Hotovosť'],
  ['PD without items', pd({ documentEntries: [] }), 'documentEntries'],
  ['UF without invoiceId', { type: 'UF', amount: 10, payments: { Karta: 10 } }, 'invoiceId'],
  ['UF with items', pd({ type: 'UF', invoiceId: 'FA-1' }), 'documentEntries'],
  ['paragonNumber without paragonDate', pd({ paragonNumber: 5 }), 'paragonDate'],
  [
    'paragón on an ND',
    pd({ type: 'ND', paragonNumber: 5, paragonDate: '01.01.2026 10:00:00' }),
    'paragonNumber',
  ],
  ['unknown vatRate', withItems([sale({ vatRate: 'VAT_7' })]), 'documentEntries[0].vatRate'],
  ['unknown itemType', withItems([sale({ itemType: 'GIFT' })]), 'documentEntries[0].itemType'],
  ['empty name', withItems([sale({ name: '' })]), 'documentEntries[0].name'],
  ['name over 255', withItems([sale({ name: 'x'.repeat(256) })]), 'documentEntries[0].name'],
  ['price with 7 decimals', withItems([sale({ price: 2.5000001 })]), 'documentEntries[0].price'],
  ['quantity with 5 decimals', withItems([sale({ quantity: 1.00001 })]), 'documentEntries[0].quantity'],
  ['PACKING at 23 %', withItems([sale({ itemType: 'PACKING' })]), 'documentEntries[0].vatRate'],
  ['negative SALE', withItems([sale({ price: -2.5 })], -2.5), 'documentEntries[0].price'],
  [
    'REFUND without reference',
    withItems([sale({ itemType: 'REFUND', price: -2.5 })], -2.5),
    'documentEntries[0].referenceDocumentId',
  ],
  [
    'reference on a SALE',
    withItems([sale({ referenceDocumentId: 'O-1' })]),
    'documentEntries[0].referenceDocumentId',
  ],
  [
    'specialRegulation at 23 %',
    withItems([sale({ specialRegulation: 'PDP' })]),
    'documentEntries[0].specialRegulation',
  ],
  [
    'VOUCHER without its SALE',
    withItems([sale(), sale({ itemType: 'VOUCHER', price: -1, voucherNumber: 'V9' })], 1.5),
    'documentEntries[1].voucherNumber',
  ],
  ['externalId over 50', pd({ externalId: 'e'.repeat(51) }), 'externalId'],
  [
    '501 items',
    withItems(
      Array.from({ length: 501 }, () => sale({ price: 0.01 })),
      5.01,
    ),
    'documentEntries',
  ],
  ['customer on an ND', pd({ type: 'ND', customer: { id: '12345678', type: 'ICO' } }), 'customer'],
  [
    'seller id without type',
    withItems([sale({ seller: { id: '1234567890' } })]),
    'documentEntries[0].seller.sellerIdType',
  ],
  [
    // Review s12 #5: the amount 0.00 is in range, the recap (TaxBaseBasic 16 260 162.60) is not.
    'VAT recap out of the SFS amount range',
    withItems(
      [
        sale({ price: 10000000 }),
        sale({ price: 10000000 }),
        sale({ price: -10000000, vatRate: 'VAT_19', itemType: 'REFUND', referenceDocumentId: 'O-1' }),
        sale({ price: -10000000, vatRate: 'VAT_19', itemType: 'REFUND', referenceDocumentId: 'O-1' }),
      ],
      0,
    ),
    'documentEntries',
  ],
];

describe('document validation through the HTTP API (701 naming the field, nothing stored)', () => {
  it.each(CASES)('%s', async (_what, body, field) => {
    const res = await h.post('/api/document/store', body);
    expect(res.status).toBe(500);
    expect(res.body.resultCode).toBe(701);
    expect(res.body.field).toBe(field);
    expect(res.body.error).toContain(field);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(0);
  });

  it.each([
    ['amount 0', { amount: 0 }, 'amount'],
    ['amount with 3 decimals', { amount: 10.005 }, 'amount'],
    ['amount missing', {}, 'amount'],
  ])('cash: %s', async (_what, body, field) => {
    const res = await h.post('/api/cash', body);
    expect(res.body.resultCode).toBe(701);
    expect(res.body.field).toBe(field);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(0);
  });
});
