import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toApiCash, toApiDocument } from '../../core/documents/api-document.js';
import { buildDocumentRecord } from '../../core/documents/document-record.js';
import { numberDocument } from '../../core/documents/numbering.js';
import { buildSfsReceiptData } from '../../core/documents/sfs-receipt-data.js';
import { CREATE_DATE, MERCHANT } from '../../core/documents/test-support.js';
import { validateCashRequest } from '../../core/documents/validate-cash-request.js';
import { validateStoreRequest } from '../../core/documents/validate-store-request.js';
import type { MerchantView } from '../../core/merchant/merchant-record.js';
import type { IndexedDocument } from '../../core/ports/journal-index.js';
import { fieldPath } from '../validation.js';
import {
  Cash,
  CashRequest,
  DocumentResponse,
  GetDocumentRequest,
  ResponseDocument,
  StoreDocumentRequest,
} from './documents.js';

const firstField = (schema: z.ZodType, body: unknown) => {
  const result = schema.safeParse(body);
  expect(result.success).toBe(false);
  return fieldPath(result.error!.issues[0]!.path, 'body');
};

const example = {
  type: 'PD',
  amount: 8.15,
  documentEntries: [
    { name: 'Káva', price: 3.69, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' },
    { name: 'Džús', price: 2.38, quantity: 1, vatRate: 'VAT_19', itemType: 'SALE' },
    { name: 'Rožok', price: 1.05, quantity: 2, vatRate: 'VAT_5', itemType: 'SALE' },
  ],
  payments: { Cash: 8.15 },
};

describe('StoreDocumentRequest schema', () => {
  it('accepts the example, nulls, empty strings for "none", labels and SFS letters; refuses unknown members', () => {
    expect(StoreDocumentRequest.safeParse({ ...example, paragonId: 3 }).success).toBe(false);
    const parsed = StoreDocumentRequest.parse({
      ...example,
      printer: null,
      header: null,
      customer: { id: '', customerIdType: '' },
      documentEntries: [
        {
          name: 'x',
          price: 1,
          quantity: 1,
          vatRate: '23%',
          itemType: 'K',
          specialRegulation: '',
          seller: null,
        },
      ],
    });
    // and the core agrees: the shape the schema gives is what the validator takes
    const v = validateStoreRequest(
      { ...parsed, amount: 1, payments: { Cash: 1 } },
      { createDate: CREATE_DATE, vatPayer: true },
    );
    expect(v.customer).toBeUndefined();
    expect(v.items[0]!.itemType.api).toBe('SALE');
  });

  it('names the field of a shape failure', () => {
    const item = example.documentEntries[0]!;
    expect(
      firstField(StoreDocumentRequest, {
        ...example,
        documentEntries: [item, { ...item, vatRate: 'VAT_21' }],
      }),
    ).toBe('documentEntries[1].vatRate');
    expect(
      firstField(StoreDocumentRequest, { ...example, documentEntries: [{ ...item, itemType: 'GIFT' }] }),
    ).toBe('documentEntries[0].itemType');
    const { payments: _p, ...noPayments } = example;
    expect(firstField(StoreDocumentRequest, noPayments)).toBe('payments');
    expect(firstField(StoreDocumentRequest, { ...example, amount: '8.15' })).toBe('amount');
    expect(firstField(StoreDocumentRequest, { ...example, payments: { Cash: 'x' } })).toBe('payments.Cash');
    expect(
      firstField(StoreDocumentRequest, { ...example, customer: { id: '1', customerIdType: 'PASS' } }),
    ).toBe('customer.customerIdType');
    expect(
      firstField(StoreDocumentRequest, {
        ...example,
        documentEntries: Array.from({ length: 501 }, () => item),
      }),
    ).toBe('documentEntries');
  });

  it('generates JSON Schema for the OpenAPI document', () => {
    for (const schema of [StoreDocumentRequest, CashRequest, GetDocumentRequest]) {
      expect(() => z.toJSONSchema(schema, { io: 'input' })).not.toThrow();
    }
    for (const schema of [DocumentResponse, Cash])
      expect(() => z.toJSONSchema(schema, { io: 'output' })).not.toThrow();
  });
});

describe('response schemas accept what the core maps', () => {
  const indexed = (request: Parameters<typeof buildSfsReceiptData>[0], online: boolean): IndexedDocument => {
    const numbering = numberDocument(CREATE_DATE, () => 0);
    const sfs = buildSfsReceiptData(request, MERCHANT, numbering, CREATE_DATE);
    const document = buildDocumentRecord({
      request,
      sfs,
      pkp: 'P'.repeat(344),
      okp: 'ED5592BF-19DB7396-19546BE7-7DC20E0A-75BB0777',
      documentNo: 1,
      merchantRecordNo: 1,
      numbering,
      demo: false,
    });
    const accepted = {
      subject: { kind: 'document' as const, documentNo: 1 },
      requestUuid: 'r',
      requestDate: '2026-03-02T10:15:31+01:00',
      sendingCount: 1,
      outcome: 'accepted' as const,
      id: 'O-544C525A6D5B47198C525A6D5BC',
      processDate: '2026-03-02T10:15:31+01:00',
    };
    return online
      ? { recordNo: 2, document, sendState: 'online', accepted, sendingCount: 1, printState: 'printed' }
      : { recordNo: 2, document, sendState: 'unsent', sendingCount: 1, printState: 'printed' };
  };

  const address = { country: 'SK', municipality: 'Bratislava', street: 'Hlavná', postalCode: '81101' };
  const merchant: MerchantView = {
    id: 1,
    corporateFullName: 'Obchod s.r.o.',
    dic: MERCHANT.dic,
    physicalAddress: address,
    organizationUnit: {
      cashRegisterCode: MERCHANT.cashRegisterCode,
      cashRegisterType: 'STANDARD',
      location: { physicalAddress: address },
    },
    demo: false,
    certificate: {
      state: 'OK',
      status: 'OK',
      expirationDate: '01.01.2028 00:00:00',
      validFrom: '01.01.2026 00:00:00',
      showWarning: false,
      daysLeft: 400,
      notYetValid: false,
      subject: 'CN=x',
      issuer: 'CN=y',
      serialNumber: '01',
      sha256: 'ab',
    },
  };

  it('ResponseDocument and Cash, online and offline', () => {
    const request = validateStoreRequest(StoreDocumentRequest.parse(example), {
      createDate: CREATE_DATE,
      vatPayer: true,
    });
    for (const online of [true, false]) {
      const doc = toApiDocument(indexed(request, online), merchant);
      expect(ResponseDocument.parse(doc)).toEqual(doc);
      const cash = toApiCash(
        indexed(validateCashRequest(CashRequest.parse({ amount: -100 })), online),
        merchant,
      );
      expect(Cash.parse(cash)).toEqual(cash);
    }
  });
});
