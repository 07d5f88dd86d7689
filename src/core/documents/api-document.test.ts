import { describe, expect, it } from 'vitest';
import type { SfsExchangeRecord } from '../journal/records.js';
import type { IndexedDocument } from '../ports/journal-index.js';
import { offlineQrText } from '../sfs/offline-qr.js';
import { toApiCash, toApiDocument } from './api-document.js';
import { buildDocumentRecord } from './document-record.js';
import { numberDocument } from './numbering.js';
import { buildSfsReceiptData } from './sfs-receipt-data.js';
import type { ValidatedCashRequest, ValidatedStoreRequest } from './store-request.js';
import { CREATE_DATE, MERCHANT, pd, sale } from './test-support.js';
import { validateCashRequest } from './validate-cash-request.js';
import { validateStoreRequest } from './validate-store-request.js';

const PKP = `${'A'.repeat(342)}==`;
const OKP = 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777';
const UID = 'O-544C525A6D5B47198C525A6D5BC';
const apiMerchant = { dic: MERCHANT.dic, corporateFullName: 'Company s.r.o.' };

function stored(
  request: ValidatedStoreRequest | ValidatedCashRequest,
  sequenceId: number,
  createDate = CREATE_DATE,
) {
  const numbering = numberDocument(createDate, () => sequenceId - 1);
  const sfs = buildSfsReceiptData(request, MERCHANT, numbering, createDate);
  return buildDocumentRecord({
    request,
    sfs,
    pkp: PKP,
    okp: OKP,
    documentNo: 40 + sequenceId,
    merchantRecordNo: 1,
    numbering,
    demo: false,
  });
}

const exchange = (over: Partial<SfsExchangeRecord>): SfsExchangeRecord => ({
  subject: { kind: 'document', documentNo: 1 },
  requestUuid: '3f0c2a7e-5b1d-4c8e-9a2f-6d1e0b7c4a11',
  requestDate: '2026-03-02T10:15:31+01:00',
  sendingCount: 1,
  outcome: 'accepted',
  ...over,
});

function online(document: IndexedDocument['document']): IndexedDocument {
  const accepted = exchange({ id: UID, processDate: '2026-03-02T10:15:31+01:00' });
  return {
    recordNo: 5,
    document,
    sendState: 'online',
    accepted,
    lastExchange: accepted,
    sendingCount: 1,
    printState: 'printed',
  };
}

function offline(document: IndexedDocument['document']): IndexedDocument {
  const last = exchange({ outcome: 'unreachable', errorText: 'timeout after 5000 ms' });
  return {
    recordNo: 5,
    document,
    sendState: 'unsent',
    lastExchange: last,
    sendingCount: 1,
    printState: 'printed',
  };
}

const ctx = { createDate: CREATE_DATE, vatPayer: true };
const mixed = () =>
  validateStoreRequest(
    pd({
      amount: 8.15,
      documentEntries: [
        sale({ name: 'Káva', price: 3.69, externalId: 'A1' }),
        sale({ name: 'Džús', price: 2.38, vatRate: 'VAT_19' }),
        sale({ name: 'Rožok', price: 1.05, quantity: 2, vatRate: 'VAT_5' }),
      ],
      payments: { Cash: 10, Card: 0 },
      header: 'Dobrý deň',
      footer: 'Ďakujeme',
      externalId: '03/02',
      customer: { id: '2020345678', customerIdType: 'DIC' },
      exception: false,
    }),
    ctx,
  );

describe('toApiDocument', () => {
  it('online: uuid, processDate, qrCode = uuid, every field capability 6 lists', () => {
    const doc = toApiDocument(online(stored(mixed(), 7)), apiMerchant, { electronicReceipt: 'iVBORw0KGgo=' });
    expect(doc).toEqual({
      type: 'PD',
      merchant: apiMerchant,
      cashRegisterCode: '88812345678900001',
      amount: 8.15,
      issueDate: '02.03.2026 10:15:30',
      createDate: '02.03.2026 10:15:30',
      processDate: '02.03.2026 10:15:31',
      sequenceId: 7,
      uuid: UID,
      pkp: PKP,
      okp: OKP,
      qrCode: UID,
      documentEntries: [
        {
          type: 'SALE',
          name: 'Káva',
          price: 3.69,
          quantity: 1,
          totalPrice: 3.69,
          vatRate: 'VAT_23',
          externalId: 'A1',
        },
        { type: 'SALE', name: 'Džús', price: 2.38, quantity: 1, totalPrice: 2.38, vatRate: 'VAT_19' },
        { type: 'SALE', name: 'Rožok', price: 1.05, quantity: 2, totalPrice: 2.1, vatRate: 'VAT_5' },
      ],
      // rows per rate + TOTAL over the item sum 8.17 (the 0.02 rounding is not VAT)
      vatRateSums: [
        { title: 'VAT_23', base: 3, vat: 0.69, sum: 3.69 },
        { title: 'VAT_19', base: 2, vat: 0.38, sum: 2.38 },
        { title: 'VAT_5', base: 2, vat: 0.1, sum: 2.1 },
        { title: 'TOTAL', base: 7, vat: 1.17, sum: 8.17 },
      ],
      paymentTypes: { Cash: 10, Card: 0 },
      header: 'Dobrý deň',
      footer: 'Ďakujeme',
      exception: false,
      electronic: false,
      electronicReceipt: 'iVBORw0KGgo=',
      documentNumber: '202603/7',
      externalId: '03/02',
      customer: { id: '2020345678', customerIdType: 'DIC' },
      internalDocumentId: 47,
      sendingCount: 1,
    });
  });

  it('offline: no uuid/processDate, qrCode = <okp>:<code>:<yyMMddHHmmss>:<sequenceId>:<amount>', () => {
    const doc = toApiDocument(offline(stored(mixed(), 7)), apiMerchant);
    expect(doc.uuid).toBeUndefined();
    expect(doc.processDate).toBeUndefined();
    expect(doc.qrCode).toBe(`${OKP}:88812345678900001:260302101530:7:8.15`);
  });

  it('reproduces the offline QR example of the API text exactly', () => {
    // API v1.7 text, identifiers and printed codes: ED5592BF-…:88812345678900001:220212222223:11:236.23
    const request = validateStoreRequest(pd({ amount: 236.23, documentEntries: [sale({ price: 236.23 })] }), {
      createDate: new Date('2022-02-12T21:22:23Z'),
      vatPayer: true,
    });
    const record = stored(request, 11, new Date('2022-02-12T21:22:23Z'));
    expect(toApiDocument(offline(record), {}).qrCode).toBe(
      'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777:88812345678900001:220212222223:11:236.23',
    );
  });

  it('sent later: uuid and processDate, but the printed offline QR stays', () => {
    const record = stored(mixed(), 7);
    const accepted = exchange({ id: UID, processDate: '2026-03-02T11:00:00+01:00', sendingCount: 2 });
    const doc = toApiDocument(
      {
        recordNo: 5,
        document: record,
        sendState: 'offline-sent',
        accepted,
        lastExchange: accepted,
        sendingCount: 2,
        printState: 'printed',
      },
      apiMerchant,
    );
    expect(doc).toMatchObject({ uuid: UID, processDate: '02.03.2026 11:00:00', sendingCount: 2 });
    expect(doc.qrCode).toBe(offlineQrText({ okp: OKP, data: record.sfs }));
  });

  it('sent later and printed only then (e.g. repaired): qrCode is the UID its original carries (ADR 0713)', () => {
    const record = stored(mixed(), 7);
    const accepted = exchange({ id: UID, processDate: '2026-03-02T11:00:00+01:00', sendingCount: 2 });
    const sentLater: IndexedDocument = {
      recordNo: 5,
      document: record,
      sendState: 'offline-sent',
      accepted,
      lastExchange: accepted,
      sendingCount: 2,
      printState: 'printed',
    };
    expect(toApiDocument({ ...sentLater, receiptForm: 'uid' }, apiMerchant).qrCode).toBe(UID);
    // Printed offline before it was sent: the offline QR on its paper stays.
    expect(toApiDocument({ ...sentLater, receiptForm: 'offline' }, apiMerchant).qrCode).toBe(
      offlineQrText({ okp: OKP, data: record.sfs }),
    );
  });

  it('paragón, UF and electronic delivery', () => {
    const par = validateStoreRequest(pd({ paragonNumber: 12, paragonDate: '01.03.2026 18:30:00' }), ctx);
    const doc = toApiDocument({ ...online(stored(par, 1)), printState: 'electronic' }, apiMerchant);
    expect(doc).toMatchObject({
      issueDate: '01.03.2026 18:30:00',
      createDate: '02.03.2026 10:15:30',
      paragonNumber: 12,
      electronic: true,
    });
    const uf = validateStoreRequest(
      { type: 'UF', amount: 56.75, invoiceId: 'FA00001', payments: { Transfer: 56.75 } },
      ctx,
    );
    const ufDoc = toApiDocument(online(stored(uf, 2)), apiMerchant);
    expect(ufDoc).toMatchObject({
      type: 'UF',
      invoiceId: 'FA00001',
      amount: 56.75,
      documentEntries: [],
      vatRateSums: [],
    });
  });

  it('items keep the unit price, API type names, voucher on the SALE and references', () => {
    const ref = 'O-544C525A6D5B47198C525A6D5BC';
    const request = validateStoreRequest(
      pd({
        amount: 0.12,
        documentEntries: [
          sale({ name: 'Tovar 2', price: 87.123, voucherNumber: 'V-1' }),
          sale({ name: 'Poukaz', itemType: 'VOUCHER', price: -80, voucherNumber: 'V-1' }),
          sale({
            name: 'Fľaša',
            itemType: 'PACKING',
            price: 0.15,
            vatRate: 'VAT_0',
            specialRegulation: 'OOD',
          }),
          sale({
            name: 'Späť',
            itemType: 'REFUND',
            price: -7.15,
            referenceDocumentId: ref,
            seller: { id: 'SK2020345678', sellerIdType: 'IC_DPH' },
          }),
        ],
        payments: { Cash: 0.12 },
      }),
      ctx,
    );
    const doc = toApiDocument(online(stored(request, 3)), apiMerchant);
    expect(doc.documentEntries).toEqual([
      {
        type: 'SALE',
        name: 'Tovar 2',
        price: 87.123,
        quantity: 1,
        totalPrice: 87.12,
        vatRate: 'VAT_23',
        voucherNumber: 'V-1',
      },
      {
        type: 'VOUCHER',
        name: 'Poukaz',
        price: -80,
        quantity: 1,
        totalPrice: -80,
        vatRate: 'VAT_23',
        voucherNumber: 'V-1',
      },
      {
        type: 'PACKING',
        name: 'Fľaša',
        price: 0.15,
        quantity: 1,
        totalPrice: 0.15,
        vatRate: 'VAT_0',
        specialRegulation: 'OOD',
      },
      {
        type: 'REFUND',
        name: 'Späť',
        price: -7.15,
        quantity: 1,
        totalPrice: -7.15,
        vatRate: 'VAT_23',
        referenceDocumentId: ref,
        seller: { id: 'SK2020345678', sellerIdType: 'IC_DPH' },
      },
    ]);
  });
});

describe('toApiCash and VK/VY', () => {
  it('VY online: negative amount in the API, positive in the SFS, status {}', () => {
    const record = stored(validateCashRequest({ amount: -100, externalId: 'uuid:bb78' }), 4);
    expect(record.sfs.Amount).toBe('100.00');
    const cash = toApiCash(online(record), apiMerchant);
    expect(cash).toEqual({
      internalDocumentId: 44,
      sequenceId: 4,
      merchant: apiMerchant,
      cashRegisterCode: '88812345678900001',
      amount: -100,
      issueDate: '02.03.2026 10:15:30',
      createDate: '02.03.2026 10:15:30',
      processDate: '02.03.2026 10:15:31',
      uuid: UID,
      pkp: PKP,
      okp: OKP,
      exception: false,
      electronic: false,
      documentNumber: '202603/4',
      sendingCount: 1,
      qrCode: UID,
      status: {},
      documentType: 'VY',
      externalId: 'uuid:bb78',
    });
    // the same document through /api/document/get (ADR 0008 §4)
    expect(toApiDocument(online(record), apiMerchant)).toMatchObject({
      type: 'VY',
      amount: -100,
      documentEntries: [],
      vatRateSums: [],
    });
  });

  it('VK offline: a warning status and the offline QR with the SFS amount', () => {
    const cash = toApiCash(offline(stored(validateCashRequest({ amount: 100 }), 1)), apiMerchant);
    expect(cash.amount).toBe(100);
    expect(cash.uuid).toBeUndefined();
    expect(cash.qrCode).toBe(`${OKP}:88812345678900001:260302101530:1:100.00`);
    expect(cash.status.warning?.warningType).toBe('OFFLINE');
    expect(cash.status.error).toBeUndefined();
  });

  it('VY offline uses the positive SFS amount in the QR; rejected → error status; not sent by law → NOT_SENT warning', () => {
    const record = stored(validateCashRequest({ amount: -25.5 }), 2);
    expect(toApiCash(offline(record), apiMerchant).qrCode).toBe(
      `${OKP}:88812345678900001:260302101530:2:25.50`,
    );
    const stuck: IndexedDocument = {
      ...offline(record),
      sendState: 'stuck',
      lastExchange: exchange({
        outcome: 'rejected',
        errorCode: -104,
        errorText: 'CreateDate later than processing time',
      }),
    };
    expect(toApiCash(stuck, apiMerchant).status.error).toMatchObject({ errorType: 'EKASA', errorCode: -104 });
    const notSent: IndexedDocument = {
      ...offline({ ...record, notSent: { reason: 'Act 384/2025' } }),
      sendState: 'not-sent',
    };
    expect(toApiCash(notSent, apiMerchant).status).toEqual({
      warning: {
        warningType: 'NOT_SENT',
        message: expect.stringContaining('Act 384/2025'),
        detail: 'Act 384/2025',
      },
    });
    expect(toApiCash(notSent, apiMerchant).status.warning?.warningType).not.toBe('OFFLINE');
  });

  it('refuses a non-cash document', () => {
    expect(() => toApiCash(online(stored(mixed(), 7)), apiMerchant)).toThrow(RangeError);
  });
});

describe('buildDocumentRecord', () => {
  it('keeps what the SFS message does not carry', () => {
    const record = stored(mixed(), 7);
    expect(record).toMatchObject({
      documentNo: 47,
      merchantRecordNo: 1,
      pkp: PKP,
      okp: OKP,
      documentNumber: '202603/7',
      roundingCents: -2,
      payments: [
        { name: 'Cash', amountCents: 1000 },
        { name: 'Card', amountCents: 0 },
      ],
      externalId: '03/02',
      header: 'Dobrý deň',
      footer: 'Ďakujeme',
      electronicRequested: false,
      openDrawer: false,
      exception: false,
      demo: false,
      apiItems: [
        { itemType: 'SALE', vatRate: 'VAT_23', unitPrice: '3.69', externalId: 'A1' },
        { itemType: 'SALE', vatRate: 'VAT_19', unitPrice: '2.38' },
        { itemType: 'SALE', vatRate: 'VAT_5', unitPrice: '1.05' },
      ],
    });
    expect(record.idempotency).toBeUndefined();
    // the record is plain JSON (it is framed into the CHDÚ as JSON)
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });
});
