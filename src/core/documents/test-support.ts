import type { DocumentEntryInput, StoreDocumentInput } from './store-request.js';

/** Fixtures of the documents domain's unit tests (imported by the *.test.ts files only). */

/** 2026-03-02 10:15:30 in Bratislava (CET). */
export const CREATE_DATE = new Date('2026-03-02T09:15:30Z');

export const MERCHANT = {
  dic: '1234567890',
  ico: '76543210',
  icDph: 'SK1234567890',
  cashRegisterCode: '88812345678900001',
} as const;

export function sale(overrides: Partial<DocumentEntryInput> = {}): DocumentEntryInput {
  return { name: 'Tovar', price: 1, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE', ...overrides };
}

/** A valid PD with one item of 10.00 at 23 %. */
export function pd(overrides: Partial<StoreDocumentInput> = {}): StoreDocumentInput {
  return {
    type: 'PD',
    amount: 10,
    documentEntries: [sale({ price: 10 })],
    payments: { Cash: 10 },
    ...overrides,
  };
}

/** What `fn` throws (undefined when it returns). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}
