import type { DocumentRecord } from '../journal/records.js';
import type { SfsReceiptData } from '../sfs/message.js';
import { formatScaled, UNIT_PRICE_SCALE } from './decimal.js';
import type { DocumentNumbering } from './numbering.js';
import type { ValidatedCashRequest, ValidatedStoreRequest } from './store-request.js';

export interface DocumentRecordInput {
  request: ValidatedStoreRequest | ValidatedCashRequest;
  /** From {@link buildSfsReceiptData}, the exact strings the PKP was computed over. */
  sfs: SfsReceiptData;
  /**
   * Validation codes over `sfs` (SFS spec §2.1–2.2: PKP over Dic|CashRegisterCode|ReceiptType|
   * ReceiptNumber|CreateDate|Amount; OKP = SHA-1 of the PKP bytes). Computed by the caller with
   * the merchant's key (the `src/core/sfs/` PKP module), so this builder stays free of keys.
   */
  pkp: string;
  okp: string;
  /** Next running number of fiscal documents (JournalIndex.lastDocumentNo() + 1). */
  documentNo: number;
  merchantRecordNo: number;
  numbering: DocumentNumbering;
  idempotency?: { key: string; requestSha256: string } | undefined;
  demo: boolean;
}

/**
 * The journal record of a new document: the SFS data as signed plus what the API returns that
 * the SFS message does not carry (payments, texts, API item names, unit prices, rounding).
 */
export function buildDocumentRecord(input: DocumentRecordInput): DocumentRecord {
  const { request } = input;
  const record: DocumentRecord = {
    documentNo: input.documentNo,
    merchantRecordNo: input.merchantRecordNo,
    sfs: input.sfs,
    pkp: input.pkp,
    okp: input.okp,
    documentNumber: input.numbering.documentNumber,
    roundingCents: request.kind === 'store' ? request.roundingCents : 0,
    payments: request.kind === 'store' ? request.payments.map((p) => ({ ...p })) : [],
    electronicRequested: request.kind === 'store' ? request.electronicReceipt : false,
    openDrawer: request.openDrawer,
    demo: input.demo,
    exception: request.exception,
  };
  if (request.externalId !== undefined) record.externalId = request.externalId;
  if (input.idempotency !== undefined) record.idempotency = { ...input.idempotency };
  if (request.kind === 'store') {
    if (request.header !== undefined) record.header = request.header;
    if (request.footer !== undefined) record.footer = request.footer;
    if (request.qrPayments !== undefined) record.qrPayments = request.qrPayments.map((q) => ({ ...q }));
    if (request.type !== 'UF') {
      record.apiItems = request.items.map((item) => {
        const api: NonNullable<DocumentRecord['apiItems']>[number] = {
          itemType: item.itemType.api,
          vatRate: item.vatRate.name,
          unitPrice: formatScaled(item.unitPriceMicros, UNIT_PRICE_SCALE, 2),
        };
        if (item.externalId !== undefined) api.externalId = item.externalId;
        if (item.voucherNumber !== undefined && item.itemType.sfs !== 'VP')
          api.voucherNumber = item.voucherNumber;
        return api;
      });
    }
  }
  return record;
}
