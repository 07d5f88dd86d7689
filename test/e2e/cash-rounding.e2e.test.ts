import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/kasa-harness.js';

/**
 * Capability 16 point 1 / ADR 0420: a 5-cent rounding is accepted only on the part paid in cash,
 * with the payment names that mean cash taken from the stored setting `cashPaymentNames`.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

/** Items summing to 1.12 (or `sum`), paid as given. */
const sale = (amount: number, payments: Record<string, number>, sum = 1.12) => ({
  type: 'PD',
  amount,
  documentEntries: [{ name: 'Rožok', price: sum, quantity: 1, vatRate: 'VAT_5', itemType: 'SALE' }],
  payments,
});

async function refused(body: Record<string, unknown>): Promise<void> {
  const before = h.kasa.parts.index.lastDocumentNo();
  const res = await h.post('/api/document/store', body);
  expect(res.body.resultCode).toBe(701);
  expect(res.body.field).toBe('amount');
  expect(h.kasa.parts.index.lastDocumentNo()).toBe(before);
}

async function accepted(body: Record<string, unknown>, roundingCents: number, sfsAmount: string) {
  const res = await h.post('/api/document/store', body);
  expect(res.body.resultCode).toBe(0);
  const last = h.kasa.parts.index.findDocument({ by: 'last' })!;
  expect(last.document.roundingCents).toBe(roundingCents);
  expect(last.document.sfs.Amount).toBe(sfsAmount);
}

describe('cash rounding only on cash (POST /api/document/store)', () => {
  it('refuses a rounded total paid by card: 701 naming amount, nothing stored', async () => {
    await refused(sale(1.1, { Karta: 1.1 }));
  });

  it('accepts the same rounding paid in cash, under any default cash name and any case', async () => {
    await accepted(sale(1.1, { Hotovosť: 1.1 }), -2, '1.10');
    await accepted(sale(1.1, { hotovost: 2 }), -2, '1.10');
    await accepted(sale(1.1, { CASH: 1.1 }), -2, '1.10');
  });

  it('accepts the exact sum with any payment', async () => {
    await accepted(sale(1.12, { Karta: 1.12 }), 0, '1.12');
  });

  it('rounds only the cash part of a mixed payment', async () => {
    // 10.03 = card 5.01 + cash 5.02 → cash 5.00: amount 10.01 (the old total rule wanted 10.05)
    await accepted(sale(10.01, { Karta: 5.01, Hotovosť: 5 }, 10.03), -2, '10.01');
    await refused(sale(10.05, { Karta: 5.01, Hotovosť: 5.04 }, 10.03));
  });

  it('rounds a refund sent with only zeros, paid back whole in cash under its first payment (ADR 0512)', async () => {
    // Review s12 #6: −10.03 paid back {Hotovosť: 0} prints "Vrátené Hotovosť 10.05" and counts in
    // the cash drawer, so its rounding to −10.05 is accepted, as with {Hotovosť: 10.05}.
    const refund = (amount: number, payments: Record<string, number>) => ({
      type: 'PD',
      amount,
      documentEntries: [
        {
          name: 'Rožok',
          price: -10.03,
          quantity: 1,
          vatRate: 'VAT_5',
          itemType: 'REFUND',
          referenceDocumentId: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A',
        },
      ],
      payments,
    });
    await accepted(refund(-10.05, { Hotovosť: 0 }), -2, '-10.05');
    await accepted(refund(-10.05, { Hotovosť: 10.05 }), -2, '-10.05');
    // Paid back by card first: nothing in cash to round.
    await refused(refund(-10.05, { Karta: 0, Hotovosť: 0 }));
  });

  it('takes the cash names from the stored setting cashPaymentNames', async () => {
    await h.kasa.parts.journal.append({ type: 'settings', body: { changes: { cashPaymentNames: ['Bar'] } } });
    try {
      await accepted(sale(1.1, { Bar: 1.1 }), -2, '1.10');
      await refused(sale(1.1, { Hotovosť: 1.1 }));
    } finally {
      await h.kasa.parts.journal.append({ type: 'settings', body: { changes: { cashPaymentNames: null } } });
    }
    await accepted(sale(1.1, { Hotovosť: 1.1 }), -2, '1.10');
  });
});
