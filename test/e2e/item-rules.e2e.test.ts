import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type Json, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';

/**
 * ADR 0430 over HTTP, as `kasa serve` composes the register (demo merchant, embedded SFS simulator,
 * virtual printer): old VAT rates only for refunds and corrections of pre-2025 sales of this
 * register (VAT act § 85, Act 278/2024); discounts and vouchers never take a rate below zero; an
 * advance reduces a rate something is sold at; packaging lines carry no VAT rate on the receipt.
 */

type Item = Record<string, unknown>;
const item = (over: Item = {}): Item => ({
  name: 'Káva',
  price: 1,
  quantity: 1,
  vatRate: 'VAT_23',
  itemType: 'SALE',
  ...over,
});
const body = (items: Item[], amount: number) => ({
  type: 'PD',
  amount,
  documentEntries: items,
  payments: { Hotovosť: Math.max(amount, 0) },
});

async function refused(h: Harness, request: unknown, field: string): Promise<void> {
  const before = h.kasa.parts.index.lastDocumentNo();
  const res = await h.post('/api/document/store', request);
  expect(res.body.resultCode, JSON.stringify(res.body)).toBe(701);
  expect(res.body.field).toBe(field);
  expect(res.body.error).toContain(field);
  expect(h.kasa.parts.index.lastDocumentNo()).toBe(before);
}

async function stored(h: Harness, request: unknown): Promise<Json> {
  const res = await h.post('/api/document/store', request);
  expect(res.body.resultCode, JSON.stringify(res.body)).toBe(0);
  return res.body.document;
}

describe('old VAT rates against a document of this register (2026)', () => {
  let h: Harness;
  let sold: Json;
  beforeAll(async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T09:15:30Z')) });
    sold = await stored(h, body([item({ price: 10 })], 10));
  });
  afterAll(async () => h.close());

  const refund = (rate: string, reference: string, itemType = 'REFUND') =>
    body([item({ itemType, price: -1, vatRate: rate, referenceDocumentId: reference })], -1);

  it('refuses VAT_20 on a REFUND of it, by UID', async () => {
    await refused(h, refund('VAT_20', sold.uuid), 'documentEntries[0].vatRate');
  });

  it('refuses VAT_20 on a REFUND of it, by OKP in either case', async () => {
    await refused(h, refund('VAT_20', sold.okp.toUpperCase()), 'documentEntries[0].vatRate');
    await refused(h, refund('20%', sold.okp.toLowerCase()), 'documentEntries[0].vatRate');
  });

  it('refuses VAT_10 on an UPDATE of it, by document number', async () => {
    await refused(h, refund('VAT_10', sold.documentNumber, 'UPDATE'), 'documentEntries[0].vatRate');
  });

  it('names the item that refers to it, not an earlier one with a foreign reference', async () => {
    const request = body(
      [
        item({ itemType: 'REFUND', price: -1, vatRate: 'VAT_20', referenceDocumentId: 'O-FOREIGN1' }),
        item({ itemType: 'REFUND', price: -1, vatRate: 'VAT_20', referenceDocumentId: sold.uuid }),
      ],
      -2,
    );
    await refused(h, request, 'documentEntries[1].vatRate');
  });

  it('accepts its refund at the rate it was sold at', async () => {
    await stored(h, refund('VAT_23', sold.uuid));
  });

  it('accepts an old rate against a reference that is not this register’s (another register, paper)', async () => {
    await stored(h, refund('VAT_20', 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A'));
    await stored(h, refund('VAT_10', '4711', 'UPDATE'));
  });

  it('accepts the old rate on a correction of this register’s own refund of a pre-2025 sale', async () => {
    // The refund is issued in 2026 but carries 20 %: it corrects a 2024 supply, and so does its correction.
    const oldRefund = await stored(h, refund('VAT_20', '2024/000123'));
    await stored(
      h,
      body(
        [item({ itemType: 'UPDATE', price: 0.5, vatRate: 'VAT_20', referenceDocumentId: oldRefund.uuid })],
        0.5,
      ),
    );
  });
});

describe('old VAT rates against a pre-2025 document of this register', () => {
  let h: Harness;
  let clock: ManualClock;
  let lastOf2024: Json;
  let firstOf2025: Json;
  beforeAll(async () => {
    // 31 Dec 2024 23:30 and 1 Jan 2025 00:00:00 in Bratislava (CET)
    clock = new ManualClock(new Date('2024-12-31T22:30:00Z'));
    h = await startHarness({ clock });
    // kasa sends the 2026 rates only: an exempt sale is what the simulator registers in 2024
    lastOf2024 = await stored(h, body([item({ price: 10, vatRate: 'VAT_0' })], 10));
    clock.current = new Date('2024-12-31T23:00:00Z');
    firstOf2025 = await stored(h, body([item({ price: 10 })], 10));
    clock.current = new Date('2026-03-02T09:15:30Z');
  });
  afterAll(async () => h.close());

  it('accepts VAT_20 on a refund of a sale of 31 Dec 2024', async () => {
    const doc = await stored(
      h,
      body(
        [item({ itemType: 'REFUND', price: -1, vatRate: 'VAT_20', referenceDocumentId: lastOf2024.okp })],
        -1,
      ),
    );
    expect(doc.documentEntries[0].vatRate).toBe('VAT_20');
  });

  it('refuses it on a refund of a sale of 1 Jan 2025 00:00:00', async () => {
    await refused(
      h,
      body(
        [item({ itemType: 'REFUND', price: -1, vatRate: 'VAT_20', referenceDocumentId: firstOf2025.okp })],
        -1,
      ),
      'documentEntries[0].vatRate',
    );
  });
});

describe('discounts, vouchers and advances stay within what is sold at their rate', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T09:15:30Z')) });
  });
  afterAll(async () => h.close());

  it('refuses a DISCOUNT larger than the sale at its rate', async () => {
    await refused(
      h,
      body([item({ price: 1 }), item({ itemType: 'DISCOUNT', price: -5 })], -4),
      'documentEntries[1].price',
    );
  });

  it('refuses an advance at 19 % when nothing is sold at 19 %', async () => {
    await refused(
      h,
      body([item({ price: 1 }), item({ itemType: 'DEPOSIT', price: -5, vatRate: 'VAT_19' })], -4),
      'documentEntries[1].vatRate',
    );
  });

  it('refuses a VOUCHER larger than the sale it pays', async () => {
    await refused(
      h,
      body(
        [
          item({ price: 5, voucherNumber: 'P-1' }),
          item({ itemType: 'VOUCHER', price: -10, voucherNumber: 'P-1' }),
        ],
        -5,
      ),
      'documentEntries[1].price',
    );
  });

  it('refuses a discount and a voucher that together exceed the sale at their rate', async () => {
    await refused(
      h,
      body(
        [
          item({ price: 5, voucherNumber: 'P-2' }),
          item({ itemType: 'VOUCHER', price: -4, voucherNumber: 'P-2' }),
          item({ itemType: 'DISCOUNT', price: -1.01 }),
        ],
        -0.01,
      ),
      'documentEntries[2].price',
    );
  });

  it('accepts a discount down to zero, and a voucher that pays the whole sale', async () => {
    const doc = await stored(
      h,
      body(
        [
          item({ price: 5, voucherNumber: 'P-3' }),
          item({ itemType: 'VOUCHER', price: -3, voucherNumber: 'P-3' }),
          item({ itemType: 'DISCOUNT', price: -2 }),
        ],
        0,
      ),
    );
    expect(doc.amount).toBe(0);
  });

  it('accepts a 0 % advance larger than the sale (it reduces no VAT)', async () => {
    const doc = await stored(
      h,
      body([item({ price: 1 }), item({ itemType: 'DEPOSIT', price: -5, vatRate: 'VAT_0' })], -4),
    );
    expect(doc.vatRateSums.find((r: Json) => r.title === 'VAT_23')).toMatchObject({ sum: 1 });
  });

  it('accepts an advance at the rate of the sale, and a refund document with a discount on its sale', async () => {
    await stored(h, body([item({ price: 120 }), item({ itemType: 'DEPOSIT', price: -60 })], 60));
    await stored(
      h,
      body(
        [
          item({ itemType: 'REFUND', price: -10, referenceDocumentId: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A' }),
          item({ price: 2 }),
          item({ itemType: 'DISCOUNT', price: -2 }),
        ],
        -10,
      ),
    );
  });
});

describe('returnable packaging on the printed receipt', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T09:15:30Z')) });
  });
  afterAll(async () => h.close());

  it('prints no VAT rate on the packaging sale and buy-back lines; exempt outside the VAT table', async () => {
    await stored(
      h,
      body(
        [
          item({ name: 'Pivo', price: 1.2, quantity: 2 }),
          item({ name: 'Fľaša', itemType: 'PACKING', price: 0.15, quantity: 2, vatRate: 'VAT_0' }),
          item({ name: 'Vrátená fľaša', itemType: 'PACKING_REFUND', price: -0.15, vatRate: 'VAT_0' }),
        ],
        2.55,
      ),
    );
    const text = h.printer.history.filter((j) => j.kind === 'receipt').at(-1)!.text;
    const lines = text.split('\n');
    const lineUnder = (name: string) => lines[lines.indexOf(name) + 1] ?? '';
    expect(lineUnder('Pivo')).toMatch(/2\.40 +23 %$/);
    expect(lineUnder('Fľaša')).toMatch(/ 0\.30$/);
    expect(lineUnder('Vrátená fľaša')).toMatch(/ -0\.15$/);
    // the amounts stay in one column
    expect(lineUnder('Fľaša').length).toBe(lineUnder('Pivo').length - ' 23 %'.length);
    expect(text).toMatch(/Oslobodené od DPH +0\.15/);
  });
});
