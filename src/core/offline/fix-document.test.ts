import { describe, expect, it } from 'vitest';
import { documentRecord } from '../../../test/support/journal-fixtures.js';
import { FiscalError } from '../fiscal-error.js';
import type { DocumentRecord } from '../journal/records.js';
import { applyDocumentFix, changingMembers, type FixDocumentInput, handedOver } from './fix-document.js';

const now = new Date('2026-03-02T12:00:00+01:00');
const lastMerchant = {
  recordNo: 9,
  dic: '1234567890',
  cashRegisterCode: '88812345678900002',
  icDph: 'SK1234567890',
};
const doc: DocumentRecord = documentRecord(4, {
  sfs: {
    ReceiptType: 'PD',
    Dic: '1234567890',
    IcDph: 'SK1234567890',
    CashRegisterCode: '88812345678900001',
    IssueDate: '2026-03-02T10:15:30+01:00',
    CreateDate: '2026-03-02T10:15:30+01:00',
    ReceiptNumber: '4',
    Paragon: 'false',
    Amount: '7.45',
    TaxBaseBasic: '4.07',
    BasicVatAmount: '0.93',
    TaxBaseReduced: '0.43',
    ReducedVatAmount: '0.02',
    TaxFreeAmount: '2.00',
    Items: [
      { ItemType: 'K', Name: 'Káva', Price: '5.00', Quantity: '2.0000', VatRate: '23.00' },
      { ItemType: 'K', Name: 'Rožok', Price: '0.45', Quantity: '3.0000', VatRate: '5.00' },
      {
        ItemType: 'K',
        Name: 'Fľaša',
        Price: '2.00',
        Quantity: '1.0000',
        VatRate: '0.00',
        SpecialRegulation: 'OOD',
      },
    ],
  },
  apiItems: [
    { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '2.5' },
    { itemType: 'SALE', vatRate: 'VAT_5', unitPrice: '0.15' },
    { itemType: 'PACKING', vatRate: 'VAT_0', unitPrice: '2' },
  ],
});
const fix = (input: FixDocumentInput, d: DocumentRecord = doc) =>
  applyDocumentFix(d, input, { now, lastMerchant, cashPaymentNames: ['Hotovosť'] });
const field = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (FiscalError.is(e, 'INVALID_INPUT')) return e.details?.field;
    throw e;
  }
  return 'no error';
};

describe('applyDocumentFix', () => {
  it('a new createDate moves CreateDate and IssueDate (not a paragón) and asks for a new PKP', () => {
    const r = fix({ createDate: '02.03.2026 11:00:00' });
    expect(r.sfs.CreateDate).toBe('2026-03-02T11:00:00+01:00');
    expect(r.sfs.IssueDate).toBe('2026-03-02T11:00:00+01:00');
    expect(r.resign).toBe(true);
    expect(doc.sfs.CreateDate).toBe('2026-03-02T10:15:30+01:00');
  });

  it('a name is not signed: same PKP; only that item changes', () => {
    const r = fix({ documentEntries: [{}, { name: 'Rožok biely' }] });
    expect(r.resign).toBe(false);
    expect(r.sfs.Items?.map((i) => i.Name)).toEqual(['Káva', 'Rožok biely', 'Fľaša']);
    expect(r.sfs.Amount).toBe('7.45');
  });

  it('a quantity recomputes the line total from the unit price, the amount and the VAT recap', () => {
    const r = fix({ documentEntries: [{ quantity: 1 }] });
    expect(r.sfs.Items?.[0]).toMatchObject({ Quantity: '1.0000', Price: '2.50' });
    expect(r.sfs.Amount).toBe('4.95');
    expect(r.sfs).toMatchObject({ TaxBaseBasic: '2.03', BasicVatAmount: '0.47', TaxFreeAmount: '2.00' });
    expect(r.resign).toBe(true);
  });

  it('a cash-rounded document stays rounded to 5 cents', () => {
    const rounded = { ...doc, roundingCents: 0, sfs: { ...doc.sfs } };
    rounded.roundingCents = 5;
    const r = fix({ documentEntries: [{ quantity: 1.1 }] }, rounded);
    // 2.75 + 0.45 + 2.00 = 5.20 → 5.20 (already a multiple of 5)
    expect(r.sfs.Amount).toBe('5.20');
    const r2 = fix({ documentEntries: [{}, { quantity: 4 }] }, rounded);
    // 5.00 + 0.60 + 2.00 = 7.60
    expect(r2.sfs.Amount).toBe('7.60');
    expect(r2.roundingCents).toBe(0);
  });

  it('a rounded document paid partly by card rounds only its cash part again (ADR 0420)', () => {
    // Items 5.02 + 5.01 = 10.03 paid {Karta: 5.01, Hotovosť: 5.00}: cash part 5.02 → 5.00, amount 10.01.
    const mixed: DocumentRecord = {
      ...doc,
      roundingCents: -2,
      payments: [
        { name: 'Karta', amountCents: 501 },
        { name: 'Hotovosť', amountCents: 500 },
      ],
      sfs: {
        ...doc.sfs,
        Amount: '10.01',
        Items: [
          { ItemType: 'K', Name: 'A', Price: '5.02', Quantity: '1.0000', VatRate: '23.00' },
          { ItemType: 'K', Name: 'B', Price: '5.01', Quantity: '1.0000', VatRate: '23.00' },
        ],
      },
      apiItems: [
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '5.02' },
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '5.01' },
      ],
    };
    // B twice: items 15.04; the card's 5.01 stays exact, the cash part 10.03 rounds to 10.05.
    const r = fix({ documentEntries: [{}, { quantity: 2 }] }, mixed);
    expect(r.sfs.Amount).toBe('15.06');
    expect(r.roundingCents).toBe(2);
    // Rounding the whole sum would have given 15.05, the rule before ADR 0420.
    // Nothing named as cash under the settings now: nothing to round.
    const byCard = { ...mixed, payments: [{ name: 'Karta', amountCents: 1001 }] };
    expect(fix({ documentEntries: [{}, { quantity: 2 }] }, byCard).sfs.Amount).toBe('15.04');
  });

  it('specialRegulationChange {newValue: null} removes it; a value needs VAT 0', () => {
    expect(
      fix({ documentEntries: [{}, {}, { specialRegulationChange: { newValue: null } }] }).sfs.Items?.[2],
    ).not.toHaveProperty('SpecialRegulation');
    expect(
      fix({ documentEntries: [{}, {}, { specialRegulationChange: { newValue: 'PDP' } }] }).sfs.Items?.[2]
        ?.SpecialRegulation,
    ).toBe('PDP');
    expect(field(() => fix({ documentEntries: [{ specialRegulationChange: { newValue: 'OOD' } }] }))).toBe(
      'fixDocument.documentEntries[0].specialRegulationChange.newValue',
    );
  });

  it('useLastMerchant takes the identity of the merchant in force and re-signs', () => {
    const r = fix({ useLastMerchant: true });
    expect(r.sfs.CashRegisterCode).toBe('88812345678900002');
    expect(r.merchantRecordNo).toBe(9);
    expect(r.resign).toBe(true);
  });

  it('an empty fix changes nothing and keeps the PKP: the document is sent again as it is', () => {
    const r = fix({});
    expect(r.sfs).toEqual(doc.sfs);
    expect(r.resign).toBe(false);
    expect(fix({ useLastMerchant: false }).resign).toBe(false);
  });

  it('refuses what it cannot do with 701 naming the field', () => {
    expect(field(() => fix({ createDate: '02.03.2026 13:00:00' }))).toBe('fixDocument.createDate');
    expect(field(() => fix({ createDate: '28.02.2026 10:00:00' }))).toBe('fixDocument.createDate');
    expect(field(() => fix({ createDate: 'yesterday' }))).toBe('fixDocument.createDate');
    expect(field(() => fix({ issueDate: '02.03.2026 10:00:00' }))).toBe('fixDocument.issueDate');
    expect(field(() => fix({ invoiceId: 'FA-1' }))).toBe('fixDocument.invoiceId');
    expect(field(() => fix({ documentEntries: [{}, {}, {}, {}] }))).toBe('fixDocument.documentEntries[3]');
    expect(field(() => fix({ documentEntries: [{ name: '' }] }))).toBe('fixDocument.documentEntries[0].name');
    expect(field(() => fix({ documentEntries: [{ quantity: 1.00001 }] }))).toBe(
      'fixDocument.documentEntries[0].quantity',
    );
  });

  it('a paragón keeps its own issueDate, which must not be after createDate; a UF takes a new invoiceId', () => {
    const paragon = {
      ...doc,
      sfs: {
        ...doc.sfs,
        Paragon: 'true' as const,
        ParagonNumber: '3',
        IssueDate: '2026-03-01T09:00:00+01:00',
      },
    };
    const r = fix({ createDate: '02.03.2026 11:00:00', issueDate: '01.03.2026 08:00:00' }, paragon);
    expect(r.sfs).toMatchObject({
      CreateDate: '2026-03-02T11:00:00+01:00',
      IssueDate: '2026-03-01T08:00:00+01:00',
    });
    expect(field(() => fix({ issueDate: '02.03.2026 11:00:00' }, paragon))).toBe('fixDocument.issueDate');
    const { Items: _items, ...noItems } = doc.sfs;
    const uf: DocumentRecord = { ...doc, sfs: { ...noItems, ReceiptType: 'UF', InvoiceNumber: 'X' } };
    expect(fix({ invoiceId: 'FA2026/7' }, uf).sfs.InvoiceNumber).toBe('FA2026/7');
  });

  it('a new createDate must not lie before the document issued before it: 701 naming both times (ADR 0117)', () => {
    const previous = { documentNumber: '202603/3', createDate: new Date('2026-03-02T10:00:00+01:00') };
    const at = (createDate: string) =>
      applyDocumentFix(doc, { createDate }, { now, lastMerchant, cashPaymentNames: [], previous });
    expect(at('02.03.2026 10:00:00').sfs.CreateDate).toBe('2026-03-02T10:00:00+01:00');
    const refusal = (() => {
      try {
        at('02.03.2026 09:59:59');
      } catch (e) {
        if (FiscalError.is(e, 'INVALID_INPUT')) return e;
      }
      return undefined;
    })();
    expect(refusal?.details?.field).toBe('fixDocument.createDate');
    expect(refusal?.message).toContain(
      'must not be before the creation time of document 202603/3, the one issued before it (2026-03-02T10:00:00+01:00): 2026-03-02T09:59:59+01:00 is earlier',
    );
  });

  describe('the repeated autumn hour: "25.10.2026 02:10:00" names 00:10Z and 01:10Z', () => {
    // Review s12 #2: document 1 at 02:20+02:00; document 2 at 02:10+01:00 was refused (-104).
    const doc1 = { documentNumber: '202610/1', createDate: new Date('2026-10-25T02:20:00+02:00') };
    const doc2: DocumentRecord = {
      ...doc,
      documentNumber: '202610/2',
      sfs: { ...doc.sfs, CreateDate: '2026-10-25T02:10:00+01:00', IssueDate: '2026-10-25T02:10:00+01:00' },
    };
    const later = new Date('2026-10-25T02:30:00+01:00');
    const repair = (createDate: string, previous = doc1, d = doc2) =>
      applyDocumentFix(d, { createDate }, { now: later, lastMerchant, cashPaymentNames: [], previous });

    it('the text the API shows for the current CreateDate means that same instant', () => {
      expect(repair('25.10.2026 02:10:00').sfs.CreateDate).toBe('2026-10-25T02:10:00+01:00');
    });

    it('another text means the earlier instant within the bounds; the later one when the earlier is before the previous document', () => {
      expect(repair('25.10.2026 02:25:00').sfs.CreateDate).toBe('2026-10-25T02:25:00+02:00');
      expect(repair('25.10.2026 02:15:00').sfs.CreateDate).toBe('2026-10-25T02:15:00+01:00');
      // An explicit offset names the later instant whatever the earlier would do.
      expect(repair('2026-10-25T02:25:00+01:00').sfs.CreateDate).toBe('2026-10-25T02:25:00+01:00');
    });

    it('701 when neither instant fits, naming both', () => {
      const previous = { documentNumber: '202610/1', createDate: new Date('2026-10-25T02:20:00+01:00') };
      expect(field(() => repair('25.10.2026 02:15:00', previous))).toBe('fixDocument.createDate');
      try {
        repair('25.10.2026 02:15:00', previous);
      } catch (e) {
        expect((e as Error).message).toContain(
          '"25.10.2026 02:15:00" falls in the repeated autumn hour: 2026-10-25T02:15:00+02:00 or 2026-10-25T02:15:00+01:00, and neither fits',
        );
      }
      // The current CreateDate itself is bounded too.
      expect(field(() => repair('25.10.2026 02:10:00', previous))).toBe('fixDocument.createDate');
    });
  });

  it('a quantity that leaves a discount above what is sold at its rate is 701, as on a store (ADR 0430)', () => {
    // Review s12 #3: sale 10.00 and discount −5.00 at 23 %; the sale's quantity 0 gave Amount −5.00.
    const discounted: DocumentRecord = {
      ...doc,
      sfs: {
        ...doc.sfs,
        Amount: '5.00',
        Items: [
          { ItemType: 'K', Name: 'A', Price: '10.00', Quantity: '1.0000', VatRate: '23.00' },
          { ItemType: 'Z', Name: 'Zľava', Price: '-5.00', Quantity: '1.0000', VatRate: '23.00' },
        ],
      },
      apiItems: [
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '10' },
        { itemType: 'DISCOUNT', vatRate: 'VAT_23', unitPrice: '-5' },
      ],
    };
    expect(field(() => fix({ documentEntries: [{ quantity: 0 }] }, discounted))).toBe(
      'fixDocument.documentEntries[1].quantity',
    );
    expect(field(() => fix({ documentEntries: [{ quantity: 0.4 }] }, discounted))).toBe(
      'fixDocument.documentEntries[1].quantity',
    );
    // Down to zero is allowed; dropping the discount too is allowed.
    expect(fix({ documentEntries: [{ quantity: 0.5 }] }, discounted).sfs.Amount).toBe('0.00');
    expect(fix({ documentEntries: [{ quantity: 0 }, { quantity: 0 }] }, discounted).sfs.Amount).toBe('0.00');
  });

  it('a quantity that takes a VAT recap out of the SFS amount range is 701 (schema, SFS -2)', () => {
    // Review s12 #5: two sales of 10 000 000 at 23 % and two refunds of −10 000 000 at 19 %: the
    // amount 0.00 is in range, TaxBaseBasic 16 260 162.60 and TaxBaseReduced −16 806 722.69 are not.
    const ref = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';
    const big: DocumentRecord = {
      ...doc,
      sfs: {
        ...doc.sfs,
        Amount: '-10000000.00',
        Items: [
          { ItemType: 'K', Name: 'A', Price: '10000000.00', Quantity: '1.0000', VatRate: '23.00' },
          { ItemType: 'K', Name: 'B', Price: '0.00', Quantity: '0.0000', VatRate: '23.00' },
          {
            ItemType: 'V',
            Name: 'C',
            Price: '-10000000.00',
            Quantity: '1.0000',
            VatRate: '19.00',
            ReferenceReceiptId: ref,
          },
          {
            ItemType: 'V',
            Name: 'D',
            Price: '-10000000.00',
            Quantity: '1.0000',
            VatRate: '19.00',
            ReferenceReceiptId: ref,
          },
        ],
      },
      apiItems: [
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '10000000' },
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '10000000' },
        { itemType: 'REFUND', vatRate: 'VAT_19', unitPrice: '-10000000' },
        { itemType: 'REFUND', vatRate: 'VAT_19', unitPrice: '-10000000' },
      ],
    };
    try {
      fix({ documentEntries: [{}, { quantity: 1 }] }, big);
      expect.unreachable('a recap out of range was accepted');
    } catch (e) {
      expect(FiscalError.is(e, 'INVALID_INPUT') && e.details?.field).toBe('fixDocument.documentEntries');
      expect((e as Error).message).toContain('TaxBaseBasic (VAT_23, VAT_20 together) comes to 16260162.60');
    }
  });

  it('names the members that would change a document; {} and empty entries change nothing', () => {
    expect(changingMembers({})).toEqual([]);
    expect(
      changingMembers({ useLastMerchant: false, createDate: null, documentEntries: [{}, null] }),
    ).toEqual([]);
    expect(
      changingMembers({
        useLastMerchant: true,
        invoiceId: 'F1',
        documentEntries: [{}, { quantity: 1 }, { specialRegulationChange: { newValue: null } }],
      }),
    ).toEqual([
      'fixDocument.useLastMerchant',
      'fixDocument.invoiceId',
      'fixDocument.documentEntries[1]',
      'fixDocument.documentEntries[2]',
    ]);
  });

  it('a document is handed over once printed, drawn as an electronic receipt, or partly printed', () => {
    expect(handedOver({ printState: 'pending' })).toBe(false);
    expect(handedOver({ printState: 'failed' })).toBe(false);
    expect(handedOver({ printState: 'failed', printStarted: true })).toBe(true);
    expect(handedOver({ printState: 'printed' })).toBe(true);
    expect(handedOver({ printState: 'electronic' })).toBe(true);
  });
});
