import type {
  DocumentRecord,
  LocationRecord,
  MerchantRecord,
  NewRecord,
  PrintRecord,
  SfsExchangeRecord,
} from '../../src/core/journal/records.js';

/** Sample journal records for CHDÚ, journal and index tests (made-up merchant, valid shapes). */
export function merchantRecord(overrides: Partial<MerchantRecord> = {}): MerchantRecord {
  return {
    dic: '1234567890',
    ico: '12345678',
    corporateFullName: 'Testovacia firma s.r.o.',
    physicalAddress: {
      municipality: 'Bratislava',
      street: 'Hlavná',
      buildingNumber: '1',
      postalCode: '81101',
    },
    organizationUnit: { cashRegisterCode: '88812345678900001', cashRegisterType: 'STANDARD' },
    identificationXml: '<IdentityData/>',
    certificate: 'MIIB',
    certificateSha256: 'ab'.repeat(32),
    notBefore: '2025-01-01T00:00:00+01:00',
    notAfter: '2027-01-01T00:00:00+01:00',
    demo: true,
    ...overrides,
  };
}

export function documentRecord(documentNo: number, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const seq = overrides.documentNumber ?? `202603/${documentNo}`;
  return {
    documentNo,
    merchantRecordNo: 1,
    sfs: {
      ReceiptType: 'PD',
      Dic: '1234567890',
      CashRegisterCode: '88812345678900001',
      IssueDate: '2026-03-02T10:15:30+01:00',
      CreateDate: '2026-03-02T10:15:30+01:00',
      ReceiptNumber: String(documentNo),
      Paragon: 'false',
      Amount: '12.30',
      TaxBaseBasic: '10.25',
      BasicVatAmount: '2.05',
      Items: [
        { ItemType: 'K', Name: `Tovar ${documentNo}`, Price: '12.30', Quantity: '1.0000', VatRate: '20.00' },
      ],
    },
    pkp: `PKP${documentNo}`.padEnd(344, 'A'),
    okp: `${documentNo.toString(16).padStart(8, '0')}-11111111-22222222-33333333-44444444`,
    documentNumber: seq,
    roundingCents: 0,
    payments: [{ name: 'Hotovosť', amountCents: 1230 }],
    externalId: `ext-${documentNo}`,
    electronicRequested: false,
    openDrawer: false,
    demo: true,
    ...overrides,
  };
}

export function exchangeRecord(
  documentNo: number,
  outcome: SfsExchangeRecord['outcome'],
  sendingCount = 1,
  overrides: Partial<SfsExchangeRecord> = {},
): SfsExchangeRecord {
  return {
    subject: { kind: 'document', documentNo },
    requestUuid: `00000000-0000-4000-8000-${documentNo.toString().padStart(12, '0')}`,
    requestDate: '2026-03-02T10:15:31+01:00',
    sendingCount,
    outcome,
    ...(outcome === 'accepted'
      ? {
          id: `O-${documentNo.toString(16).toUpperCase().padStart(27, '0')}`,
          processDate: '2026-03-02T10:15:32+01:00',
        }
      : {}),
    ...(outcome === 'rejected' ? { errorCode: -100, errorText: 'rejected' } : {}),
    ...overrides,
  };
}

export function locationRecord(locationNo: number): LocationRecord {
  return {
    locationNo,
    merchantRecordNo: 1,
    sfs: {
      Dic: '1234567890',
      CashRegisterCode: '88812345678900001',
      CreateDate: '2026-03-02T10:15:30+01:00',
      location: { kind: 'gps', AxisX: '17.107748', AxisY: '48.148598' },
    },
  };
}

export function printRecord(
  documentNo: number,
  ok = true,
  overrides: Partial<PrintRecord> = {},
): PrintRecord {
  return { documentNo, copy: false, ok, ...(ok ? {} : { printerCode: 102 }), ...overrides };
}

/** A realistic mixed stream: merchant first, then per document a document, an exchange, a print. */
export function* mixedRecords(count: number): Generator<NewRecord> {
  yield { type: 'merchant', body: merchantRecord() };
  let documentNo = 0;
  for (let i = 1; i < count; i++) {
    const phase = i % 3;
    if (phase === 1) {
      documentNo++;
      yield { type: 'document', body: documentRecord(documentNo) };
    } else if (phase === 2) {
      yield {
        type: 'sfs-exchange',
        body: exchangeRecord(documentNo, documentNo % 7 === 0 ? 'unreachable' : 'accepted'),
      };
    } else {
      yield { type: 'print', body: printRecord(documentNo, documentNo % 11 !== 0) };
    }
  }
}
