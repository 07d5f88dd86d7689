import { expect } from 'vitest';
import { type Json, pd } from './kasa-harness.js';

/** Posts JSON to a register (in-process harness or a real `kasa serve`). */
export type PostJson = (url: string, body: unknown) => Promise<{ status: number; body: Json }>;

/** A shop's day: PD, UF, a refund, VK and VY (and a sale the day before, outside the period). */
export async function shopDay(h: { post: PostJson }): Promise<Json[]> {
  const docs: Json[] = [];
  const store = async (body: Record<string, unknown>) => {
    const res = await h.post('/api/document/store', body);
    expect(res.body.resultCode, JSON.stringify(res.body)).toBe(0);
    docs.push(res.body.document);
    return res.body.document;
  };
  const cash = async (amount: number) => {
    const res = await h.post('/api/cash', { amount });
    expect(res.body.resultCode, JSON.stringify(res.body)).toBe(0);
    docs.push(res.body.cash);
  };
  await cash(100);
  const sale = await store(pd({ externalId: 'POS-1' }));
  await store(
    pd({
      amount: 12.95,
      documentEntries: [
        { name: 'Víno', price: 8.5, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' },
        { name: 'Syr', price: 4.45, quantity: 1, vatRate: 'VAT_19', itemType: 'SALE' },
      ],
      payments: { Karta: 5, Hotovosť: 10 },
    }),
  );
  await store({ type: 'UF', amount: 50, invoiceId: 'FA2026001', payments: { Karta: 50 } });
  await store({
    type: 'PD',
    amount: -2.5,
    documentEntries: [
      {
        name: 'Vrátená káva',
        price: -2.5,
        quantity: 1,
        vatRate: 'VAT_23',
        itemType: 'REFUND',
        referenceDocumentId: sale.uuid,
      },
    ],
    payments: { Hotovosť: 2.5 },
  });
  await cash(-40);
  return docs;
}
