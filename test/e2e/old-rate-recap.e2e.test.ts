import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';

/**
 * Capability 16 point 4 / ADR 0423: kasa keeps adding a 2026 refund of a pre-2025 sale at 20 % / 10 %
 * to the basic / reduced recap, and the (careful) simulator registers it.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T09:15:30Z')) });
});
afterAll(async () => h.close());

const REF = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';

describe('a 2026 refund of a pre-2025 sale', () => {
  it('is added to basic (20 %) and reduced (10 %) and registered online', async () => {
    const res = await h.post('/api/document/store', {
      type: 'PD',
      amount: 3.77,
      documentEntries: [
        { name: 'Káva', price: 3.69, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' },
        { name: 'Džús', price: 2.38, quantity: 1, vatRate: 'VAT_19', itemType: 'SALE' },
        {
          name: 'Vrátenie 2024',
          price: -1.2,
          quantity: 1,
          vatRate: 'VAT_20',
          itemType: 'REFUND',
          referenceDocumentId: REF,
        },
        {
          name: 'Oprava 2024',
          price: -1.1,
          quantity: 1,
          vatRate: 'VAT_10',
          itemType: 'UPDATE',
          referenceDocumentId: REF,
        },
      ],
      payments: { Karta: 3.77 },
    });
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toMatch(/^O-/);
    const sfs = h.kasa.parts.index.findDocument({ by: 'last' })!.document.sfs;
    expect(sfs).toMatchObject({
      TaxBaseBasic: '2.00',
      BasicVatAmount: '0.49',
      TaxBaseReduced: '1.00',
      ReducedVatAmount: '0.28',
    });
  });
});
