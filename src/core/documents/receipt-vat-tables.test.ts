import { describe, expect, it } from 'vitest';
import { numberDocument } from './numbering.js';
import { receiptVatTables } from './receipt-vat-tables.js';
import { buildSfsReceiptData } from './sfs-receipt-data.js';
import { CREATE_DATE, MERCHANT, pd, sale } from './test-support.js';
import { validateStoreRequest } from './validate-store-request.js';

describe('receiptVatTables', () => {
  it('gives the printed VAT table the numbers of the recap, with 0 % lines outside it', () => {
    const request = validateStoreRequest(
      pd({
        amount: 10.3,
        documentEntries: [
          sale({ name: 'Pivo', price: 1.59, quantity: 6 }),
          sale({ name: 'Fľaša', itemType: 'PACKING', price: 0.15, quantity: 6, vatRate: 'VAT_0' }),
          sale({ name: 'Vratka', itemType: 'PACKING_REFUND', price: -0.15, quantity: 2, vatRate: 'VAT_0' }),
          sale({ name: 'Stavebné práce', price: 0.05, vatRate: 'VAT_0', specialRegulation: 'PDP' }),
          sale({ name: 'Rožok', price: 0.12, vatRate: 'VAT_5' }),
        ],
        payments: { Cash: 10.3 },
      }),
      { createDate: CREATE_DATE, vatPayer: true },
    );
    const sfs = buildSfsReceiptData(
      request,
      MERCHANT,
      numberDocument(CREATE_DATE, () => 0),
      CREATE_DATE,
    );
    // 23 %: 9.54 × 23/123 = 1.7839 → 1.78, base 7.76;  5 %: 0.12 × 5/105 = 0.0057 → 0.01, base 0.11
    // exempt: packaging 0.90 − 0.30 = 0.60; PDP 0.05
    expect(receiptVatTables(sfs)).toEqual({
      vatRows: [
        { rate: 23, baseCents: 776, vatCents: 178, totalCents: 954 },
        { rate: 5, baseCents: 11, vatCents: 1, totalCents: 12 },
      ],
      exemptRows: [{ totalCents: 60 }, { specialRegulation: 'PDP', totalCents: 5 }],
    });
  });

  it('has no rows for UF and cash documents', () => {
    const sfs = buildSfsReceiptData(
      validateStoreRequest(
        { type: 'UF', amount: 5, invoiceId: 'F1', payments: {} },
        { createDate: CREATE_DATE, vatPayer: true },
      ),
      MERCHANT,
      numberDocument(CREATE_DATE, () => 0),
      CREATE_DATE,
    );
    expect(receiptVatTables(sfs)).toEqual({ vatRows: [], exemptRows: [] });
  });
});
