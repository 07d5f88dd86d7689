import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { itemTypeRule } from './item-types.js';
import { numberDocument } from './numbering.js';
import { buildSfsReceiptData } from './sfs-receipt-data.js';
import type { ValidatedStoreRequest } from './store-request.js';
import { CREATE_DATE, MERCHANT, pd, sale } from './test-support.js';
import { validateCashRequest } from './validate-cash-request.js';
import { validateStoreRequest } from './validate-store-request.js';
import { vatRateByName } from './vat-rates.js';

const ctx = { createDate: CREATE_DATE, vatPayer: true };
const numbering = (sequenceId: number) => numberDocument(CREATE_DATE, () => sequenceId - 1);

/** Attributes of the first `<ekasa:TAG …>` of an official sample, and of each Item. */
function sampleAttributes(file: string): { data: Record<string, string>; items: Record<string, string>[] } {
  const xml = readFileSync(official('soap-samples', file), 'utf8');
  const attrs = (tag: string) =>
    Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const data = /<ekasa:ReceiptData\s[^>]*>/.exec(xml);
  if (!data) throw new Error(`no ReceiptData in ${file}`);
  const items = [...xml.matchAll(/<ekasa:Item\s[^>]*>/g)].map((m) => attrs(m[0]));
  return { data: attrs(data[0]), items };
}

/** 2019-01-31 12:01:14 +01:00, the CreateDate of every official sample. */
const SAMPLE_DATE = new Date('2019-01-31T11:01:14Z');
const sampleMerchant = { dic: '1234567890', icDph: 'SK1234567890', cashRegisterCode: '88812345678900001' };

describe.skipIf(!hasOfficialFixtures)(`mapping matches the official SFS samples (${SHARED_MISSING})`, () => {
  it('VY: the withdrawal amount is written positive (priklad_vyber_20190131.xml)', () => {
    const request = validateCashRequest({ amount: -100 });
    const sfs = buildSfsReceiptData(
      request,
      sampleMerchant,
      numberDocument(SAMPLE_DATE, () => 1),
      SAMPLE_DATE,
    );
    expect(sfs).toEqual(sampleAttributes('priklad_vyber_20190131.xml').data);
  });

  it('VK (priklad_vklad_20190131.xml)', () => {
    const request = validateCashRequest({ amount: 100 });
    const sfs = buildSfsReceiptData(
      request,
      sampleMerchant,
      numberDocument(SAMPLE_DATE, () => 0),
      SAMPLE_DATE,
    );
    expect(sfs).toEqual(sampleAttributes('priklad_vklad_20190131.xml').data);
  });

  it('UF: InvoiceNumber, no items, no recap (priklad_uhrada_faktury_20190131.xml)', () => {
    const request = validateStoreRequest(
      { type: 'UF', amount: 56.75, invoiceId: '1', payments: { Cash: 56.75 } },
      { createDate: SAMPLE_DATE, vatPayer: true },
    );
    const sfs = buildSfsReceiptData(
      request,
      sampleMerchant,
      numberDocument(SAMPLE_DATE, () => 5),
      SAMPLE_DATE,
    );
    expect(sfs).toEqual(sampleAttributes('priklad_uhrada_faktury_20190131.xml').data);
  });

  it('ND with items and the recap (priklad_neplatny_doklad_20190131.xml, 2019 rates)', () => {
    // The 2019 sample uses 20 %/10 % on K items, which kasa accepts only on refunds today, so the
    // validated request is built by hand to compare the mapping itself.
    const k = (
      name: string,
      unitPriceMicros: bigint,
      quantityUnits: bigint,
      totalCents: number,
      rate: 'VAT_20' | 'VAT_10',
    ) => ({
      itemType: itemTypeRule('SALE'),
      name,
      unitPriceMicros,
      quantityUnits,
      totalCents,
      vatRate: vatRateByName(rate),
    });
    const request: ValidatedStoreRequest = {
      kind: 'store',
      type: 'ND',
      amountCents: 23723,
      itemSumCents: 23723,
      roundingCents: 0,
      items: [
        k('Tovar 1', 75_000_000n, 20_000n, 15000, 'VAT_20'),
        k('Tovar 2', 87_230_000n, 10_000n, 8723, 'VAT_10'),
      ],
      payments: [],
      electronicReceipt: false,
      openDrawer: false,
      exception: false,
    };
    const sfs = buildSfsReceiptData(
      request,
      sampleMerchant,
      numberDocument(SAMPLE_DATE, () => 99),
      SAMPLE_DATE,
    );
    const sample = sampleAttributes('priklad_neplatny_doklad_20190131.xml');
    const { Items, ...data } = sfs;
    expect(data).toEqual(sample.data);
    expect(Items).toEqual(sample.items);
  });
});

describe('buildSfsReceiptData per type (2026)', () => {
  it('PD with mixed VAT: recap, items, identity, no paragón', () => {
    // 3.69 @23 + 2.38 @19 + 2 × 1.05 @5 = 8.17 (reference §1.10)
    const request = validateStoreRequest(
      pd({
        amount: 8.15,
        documentEntries: [
          sale({ name: 'Káva', price: 3.69 }),
          sale({ name: 'Džús', price: 2.38, vatRate: 'VAT_19' }),
          sale({ name: 'Rožok', price: 1.05, quantity: 2, vatRate: 'VAT_5' }),
        ],
        payments: { Cash: 8.15 },
        customer: { id: '2020345678', customerIdType: 'DIC' },
      }),
      ctx,
    );
    expect(request.roundingCents).toBe(-2);
    const sfs = buildSfsReceiptData(request, MERCHANT, numbering(7), CREATE_DATE);
    expect(sfs).toEqual({
      ReceiptType: 'PD',
      Dic: '1234567890',
      Ico: '76543210',
      IcDph: 'SK1234567890',
      CashRegisterCode: '88812345678900001',
      IssueDate: '2026-03-02T10:15:30+01:00',
      CreateDate: '2026-03-02T10:15:30+01:00',
      ReceiptNumber: '7',
      Paragon: 'false',
      CustomerId: '2020345678',
      CustomerIdType: 'DIC',
      // ADR 0402: Amount is what the customer pays (rounded), the items keep their exact sum
      Amount: '8.15',
      TaxBaseBasic: '3.00',
      BasicVatAmount: '0.69',
      TaxBaseReduced: '4.00',
      ReducedVatAmount: '0.48',
      Items: [
        { ItemType: 'K', Name: 'Káva', Price: '3.69', Quantity: '1.0000', VatRate: '23.00' },
        { ItemType: 'K', Name: 'Džús', Price: '2.38', Quantity: '1.0000', VatRate: '19.00' },
        { ItemType: 'K', Name: 'Rožok', Price: '2.10', Quantity: '2.0000', VatRate: '5.00' },
      ],
    });
  });

  it('maps every item type and keeps VoucherNumber on VP only', () => {
    const ref = 'O-544C525A6D5B47198C525A6D5BC';
    const request = validateStoreRequest(
      pd({
        amount: 3,
        documentEntries: [
          sale({ name: 'Pivo', price: 1.59, quantity: 6 }),
          sale({
            name: 'Fľaša',
            itemType: 'PACKING',
            price: 0.15,
            quantity: 6,
            vatRate: 'VAT_0',
            specialRegulation: 'OOD',
          }),
          sale({
            name: 'Vrátená fľaša',
            itemType: 'PACKING_REFUND',
            price: -0.15,
            quantity: 10,
            vatRate: 'VAT_0',
          }),
          sale({
            name: 'Kniha',
            price: 12,
            vatRate: 'VAT_5',
            voucherNumber: 'V-1',
            seller: { id: '2020345678', sellerIdType: 'DIC' },
          }),
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
    const sfs = buildSfsReceiptData(request, MERCHANT, numbering(8), CREATE_DATE);
    expect(sfs.Items).toEqual([
      { ItemType: 'K', Name: 'Pivo', Price: '9.54', Quantity: '6.0000', VatRate: '23.00' },
      {
        ItemType: 'K',
        Name: 'Fľaša',
        Price: '0.90',
        Quantity: '6.0000',
        VatRate: '0.00',
        SpecialRegulation: 'OOD',
      },
      { ItemType: 'VO', Name: 'Vrátená fľaša', Price: '-1.50', Quantity: '10.0000', VatRate: '0.00' },
      {
        ItemType: 'K',
        Name: 'Kniha',
        Price: '12.00',
        Quantity: '1.0000',
        VatRate: '5.00',
        SellerId: '2020345678',
        SellerIdType: 'DIC',
      },
      {
        ItemType: 'VP',
        Name: 'Poukaz',
        Price: '-10.00',
        Quantity: '1.0000',
        VatRate: '5.00',
        VoucherNumber: 'V-1',
      },
      { ItemType: 'Z', Name: 'Zľava', Price: '-0.95', Quantity: '1.0000', VatRate: '23.00' },
      {
        ItemType: 'V',
        Name: 'Vrátený tovar',
        Price: '-4.99',
        Quantity: '1.0000',
        VatRate: '19.00',
        ReferenceReceiptId: ref,
      },
      { ItemType: 'OZ', Name: 'Záloha', Price: '-2.00', Quantity: '1.0000', VatRate: '0.00' },
    ]);
    expect(sfs).toMatchObject({
      Amount: '3.00',
      TaxBaseBasic: '6.98',
      BasicVatAmount: '1.61',
      TaxBaseReduced: '-2.29',
      ReducedVatAmount: '-0.70',
      TaxFreeAmount: '-2.60',
    });
  });

  it('paragón: IssueDate is the paper date, CreateDate now, Paragon true + ParagonNumber', () => {
    const request = validateStoreRequest(pd({ paragonNumber: 12, paragonDate: '01.03.2026 18:30:00' }), ctx);
    const sfs = buildSfsReceiptData(request, MERCHANT, numbering(9), CREATE_DATE);
    expect(sfs).toMatchObject({
      IssueDate: '2026-03-01T18:30:00+01:00',
      CreateDate: '2026-03-02T10:15:30+01:00',
      Paragon: 'true',
      ParagonNumber: '12',
    });
  });

  it('ND: items and recap, never a customer or paragón; UF: no items, no recap', () => {
    const nd = buildSfsReceiptData(
      validateStoreRequest(pd({ type: 'ND' }), ctx),
      MERCHANT,
      numbering(1),
      CREATE_DATE,
    );
    expect(nd.ReceiptType).toBe('ND');
    expect(nd.Items).toHaveLength(1);
    expect(nd.CustomerId).toBeUndefined();
    expect(nd.InvoiceNumber).toBeUndefined();
    const uf = buildSfsReceiptData(
      validateStoreRequest(
        {
          type: 'UF',
          amount: 56.75,
          invoiceId: 'FA00001',
          payments: {},
          customer: { id: '76543210', customerIdType: 'ICO' },
        },
        ctx,
      ),
      MERCHANT,
      numbering(2),
      CREATE_DATE,
    );
    expect(uf).toEqual({
      ReceiptType: 'UF',
      Dic: '1234567890',
      Ico: '76543210',
      IcDph: 'SK1234567890',
      CashRegisterCode: '88812345678900001',
      IssueDate: '2026-03-02T10:15:30+01:00',
      CreateDate: '2026-03-02T10:15:30+01:00',
      ReceiptNumber: '2',
      InvoiceNumber: 'FA00001',
      Paragon: 'false',
      CustomerId: '76543210',
      CustomerIdType: 'ICO',
      Amount: '56.75',
    });
  });

  it('VK/VY: identity + Amount only; a non-VAT-payer has no IcDph and sends TaxFreeAmount only', () => {
    const vy = buildSfsReceiptData(
      validateCashRequest({ amount: -25.5 }),
      MERCHANT,
      numbering(3),
      CREATE_DATE,
    );
    expect(vy).toEqual({
      ReceiptType: 'VY',
      Dic: '1234567890',
      Ico: '76543210',
      IcDph: 'SK1234567890',
      CashRegisterCode: '88812345678900001',
      IssueDate: '2026-03-02T10:15:30+01:00',
      CreateDate: '2026-03-02T10:15:30+01:00',
      ReceiptNumber: '3',
      Paragon: 'false',
      Amount: '25.50',
    });
    const nonPayer = { dic: '1234567890', ico: '123456', cashRegisterCode: '88812345678900001' };
    const request = validateStoreRequest(pd({ documentEntries: [sale({ price: 10, vatRate: 'VAT_0' })] }), {
      createDate: CREATE_DATE,
      vatPayer: false,
    });
    const sfs = buildSfsReceiptData(request, nonPayer, numbering(4), CREATE_DATE);
    expect(sfs.IcDph).toBeUndefined();
    expect(sfs.Ico).toBe('00123456');
    expect(sfs).toMatchObject({ TaxFreeAmount: '10.00' });
    expect(sfs.TaxBaseBasic).toBeUndefined();
  });
});
