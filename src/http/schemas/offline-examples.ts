import { exampleDocument, exampleMerchant } from './examples.js';

/** Example values of the offline, location and repair endpoints (OpenAPI). */
const portableMerchant = {
  ...exampleMerchant,
  organizationUnit: { ...exampleMerchant.organizationUnit, cashRegisterType: 'PORTABLE' as const },
};

const {
  uuid: _uuid,
  processDate: _processDate,
  ...offlineBase
} = exampleDocument as typeof exampleDocument & {
  uuid?: string;
  processDate?: string;
};

const offlineQr = `${exampleDocument.okp}:88812345678900001:261122062213:1:7.45`;

export const exampleOfflineDocument = {
  ...offlineBase,
  qrCode: offlineQr,
  status: {
    warning: {
      warningType: 'OFFLINE',
      message: 'Not registered yet; it is stored and the register sends it.',
      detail: 'last attempt 1: unreachable (connect ECONNREFUSED 127.0.0.1:9)',
    },
  },
};

export const exampleStuckDocument = {
  ...offlineBase,
  documentNumber: '202611/2',
  sequenceId: 2,
  internalDocumentId: 2,
  sendingCount: 2,
  status: {
    error: {
      errorType: 'EKASA' as const,
      errorCode: -104,
      message: 'Dátum vytvorenia je neskorší ako čas spracovania.',
      detail:
        'Rejected by the SFS; repair it with POST /api/document/update {"internalDocumentId": 2, "fixDocument": …} (docs/offline.md lists the fix per code).',
    },
  },
};

export const exampleLocation = {
  internalId: 3,
  kind: 'gps' as const,
  gps: { x: 17.112415, y: 48.1467828 },
  createDate: '22.11.2026 07:00:00',
  processDate: '22.11.2026 07:00:01',
  uuid: '5f0b5c4e-8a7e-4d25-9d59-0c7f3b1d2a11',
  cashRegisterCode: '88812345678900001',
  merchant: portableMerchant,
  sendingCount: 1,
  status: {},
};

export const exampleSentDocument = {
  ...exampleDocument,
  uuid: 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A',
  processDate: '22.11.2026 09:10:00',
  qrCode: offlineQr,
  sendingCount: 2,
  status: {},
};
