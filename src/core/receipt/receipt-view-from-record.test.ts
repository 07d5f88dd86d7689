import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import type { DocumentRecord, MerchantRecord } from '../journal/records.js';
import type { SfsItem, SfsReceiptData } from '../sfs/message.js';
import { layoutReceipt } from './receipt-layout.js';
import { renderReceiptText } from './receipt-text.js';
import { parseCents, receiptViewFromRecord } from './receipt-view-from-record.js';

const merchant: MerchantRecord = {
  dic: '1234567890',
  ico: '76543210',
  icDph: 'SK1234567890',
  corporateFullName: 'Finančná správa i.n.t.',
  physicalAddress: {
    municipality: 'Štrkovec',
    street: 'Horná',
    buildingNumber: '7',
    propertyRegistrationNumber: '560',
    postalCode: '98045',
  },
  organizationUnit: {
    name: 'nepovinný názov predajne',
    cashRegisterCode: '88812345678900001',
    cashRegisterType: 'PORTABLE',
  },
  identificationXml: '<IdentityData/>',
  certificate: '',
  certificateSha256: '',
  notBefore: '2019-01-01T00:00:00+01:00',
  notAfter: '2030-01-01T00:00:00+01:00',
  demo: false,
};

function record(sfs: SfsReceiptData, extra: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    documentNo: 5,
    merchantRecordNo: 1,
    sfs,
    pkp: 'P'.repeat(344),
    okp: '7909cbba-bad08f53-2c03ba5b-9f15533f-9e0ae846',
    documentNumber: '201901/5',
    roundingCents: 0,
    payments: [{ name: 'Hotovosť', amountCents: 23723 }],
    electronicRequested: false,
    openDrawer: false,
    demo: false,
    ...extra,
  };
}

/** The attributes of one XML element of the official sample (no XML parser needed for these). */
function attributes(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe('receiptViewFromRecord', () => {
  const paragonTitle = 'lays out the official paragón sample as a paragón receipt';
  it.skipIf(!hasOfficialFixtures)(
    hasOfficialFixtures ? paragonTitle : `${paragonTitle} (${SHARED_MISSING})`,
    () => {
      const xml = readFileSync(official('soap-samples', 'priklad_paragon_20190131.xml'), 'utf8');
      const data = attributes(/<ekasa:ReceiptData [^>]*>/.exec(xml)?.[0] ?? '') as unknown as SfsReceiptData;
      data.Items = [...xml.matchAll(/<ekasa:Item [^>]*>/g)].map(
        (m) => attributes(m[0]) as unknown as SfsItem,
      );
      const view = receiptViewFromRecord({
        record: record(data),
        merchant,
        offline: true,
        qrText: '7909cbba-bad08f53-2c03ba5b-9f15533f-9e0ae846:88812345678900001:190131120114:5:237.23',
        vatRows: [
          { rate: 20, baseCents: 12500, vatCents: 2500, totalCents: 15000 },
          { rate: 10, baseCents: 7930, vatCents: 793, totalCents: 8723 },
        ],
        exemptRows: [],
      });
      expect(view).toMatchObject({
        type: 'PD',
        sequenceNumber: 5,
        issueDate: '12.12.2018 15:50:14',
        paragon: { number: 1, createDate: '31.01.2019 12:01:14' },
        totalCents: 23723,
        portable: true,
        merchant: { name: 'Finančná správa i.n.t.', dic: '1234567890', icDph: 'SK2004567890' },
      });
      expect(view.items).toEqual([
        {
          name: 'Tovar 1',
          kind: 'SALE',
          quantity: '2',
          unitPrice: '150.00',
          lineTotalCents: 15000,
          vatRate: 20,
        },
        {
          name: 'Tovar 2',
          kind: 'SALE',
          quantity: '1',
          unitPrice: '87.23',
          lineTotalCents: 8723,
          vatRate: 10,
        },
      ]);
      const text = renderReceiptText(layoutReceipt(view, 48)).replace(/\s+/g, ' ');
      for (const fragment of [
        'OFF-LINE DOKLAD',
        'Číslo paragónu: 1',
        'Dátum zaevid.: 31.01.2019 12:01:14',
        'SUMA 237.23 EUR',
      ]) {
        expect(text).toContain(fragment);
      }
    },
  );

  it('keeps the API item types and unit prices, the customer, UID, header/footer and copy flag', () => {
    const sfs: SfsReceiptData = {
      ReceiptType: 'PD',
      Dic: '1234567890',
      IcDph: 'SK1234567890',
      CashRegisterCode: '88812345678900001',
      IssueDate: '2026-07-01T09:00:00+02:00',
      CreateDate: '2026-07-01T09:00:00+02:00',
      ReceiptNumber: '3',
      Paragon: 'false',
      CustomerId: '11223344',
      CustomerIdType: 'ICO',
      Amount: '2.60',
      Items: [
        { ItemType: 'K', Name: 'Fľaša', Price: '0.15', Quantity: '1.0000', VatRate: '0.00' },
        { ItemType: 'K', Name: 'Syr', Price: '2.45', Quantity: '0.3500', VatRate: '5.00' },
      ],
    };
    const view = receiptViewFromRecord({
      record: record(sfs, {
        header: 'Vitajte',
        footer: 'Dovidenia',
        apiItems: [
          { itemType: 'PACKING', vatRate: 'VAT_0', unitPrice: '0.15' },
          { itemType: 'SALE', vatRate: 'VAT_5', unitPrice: '7.00' },
        ],
      }),
      merchant: { ...merchant, demo: true },
      uid: 'O-00000000000000000000000000000001',
      offline: false,
      qrText: 'O-00000000000000000000000000000001',
      vatRows: [{ rate: 5, baseCents: 233, vatCents: 12, totalCents: 245 }],
      exemptRows: [{ totalCents: 15 }],
      copy: true,
      logoRef: 'logo',
    });
    expect(view.items.map((i) => [i.kind, i.quantity, i.unitPrice])).toEqual([
      ['PACKING', '1', '0.15'],
      ['SALE', '0.35', '7.00'],
    ]);
    expect(view).toMatchObject({
      customer: { id: '11223344', type: 'ICO' },
      uid: 'O-00000000000000000000000000000001',
      header: 'Vitajte',
      footer: 'Dovidenia',
      copy: true,
      demo: true,
      logoRef: 'logo',
      issueDate: '01.07.2026 09:00:00',
    });
    expect(view.paragon).toBeUndefined();
    expect(view.merchant.ico).toBeUndefined();
  });

  it('parses XSD amounts into cents without floating point', () => {
    expect(parseCents('237.23')).toBe(23723);
    expect(parseCents('-0.5')).toBe(-50);
    expect(parseCents('7')).toBe(700);
    expect(parseCents('-0.00')).toBe(0);
    expect(() => parseCents('1.234')).toThrow(RangeError);
  });
});
