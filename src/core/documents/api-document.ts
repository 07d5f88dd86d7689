import type { DocumentRecord, SfsExchangeRecord } from '../journal/records.js';
import type { IndexedDocument } from '../ports/journal-index.js';
import type {
  CustomerIdType,
  ReceiptType,
  SellerIdType,
  SfsItem,
  SfsReceiptData,
  SpecialRegulation,
} from '../sfs/message.js';
import { offlineQrText } from '../sfs/offline-qr.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';
import {
  centsToNumber,
  divRoundHalfAwayFromZero,
  parseCentsText,
  QUANTITY_SCALE,
  scaledToNumber,
  toScaledInteger,
  UNIT_PRICE_SCALE,
} from './decimal.js';
import { type ApiItemType, resolveItemType } from './item-types.js';
import { receiptFormOf } from './receipt-form.js';
import { vatBreakdown } from './vat-breakdown.js';
import { resolveVatRate, type VatRate, type VatRateName, vatRateFromSfs } from './vat-rates.js';

/** `DocumentItem` of the API (API v1.7 text, model DocumentItem). Numbers are JSON numbers. */
export interface ApiDocumentItem {
  type: ApiItemType;
  name: string;
  /** Unit price. */
  price: number;
  quantity: number;
  /** Line total (the SFS Price). */
  totalPrice: number;
  vatRate: VatRateName;
  referenceDocumentId?: string;
  specialRegulation?: SpecialRegulation;
  seller?: { id: string; sellerIdType: SellerIdType };
  voucherNumber?: string;
  externalId?: string;
}

/** `VatRateSum` (API v1.7 text, model VatRateSum): one row per rate plus a `TOTAL` row. */
export interface ApiVatRateSum {
  title: VatRateName | 'TOTAL';
  base: number;
  vat: number;
  sum: number;
}

/** The API `document` object (API v1.7 text, model ResponseDocument + capability 6). `M` is the API merchant view. */
export interface ApiDocument<M = unknown> {
  type: ReceiptType;
  merchant: M;
  cashRegisterCode: string;
  /** What the customer paid; negative for a withdrawal (VY) as in the API. */
  amount: number;
  issueDate: string;
  createDate: string;
  processDate?: string;
  sequenceId: number;
  uuid?: string;
  pkp: string;
  okp: string;
  qrCode: string;
  documentEntries: ApiDocumentItem[];
  vatRateSums: ApiVatRateSum[];
  paymentTypes: Record<string, number>;
  header?: string;
  footer?: string;
  exception: boolean;
  electronic: boolean;
  /** Base64 PNG of the electronic receipt (online + electronic only). */
  electronicReceipt?: string;
  documentNumber: string;
  externalId?: string;
  invoiceId?: string;
  paragonNumber?: number;
  customer?: { id: string; customerIdType: CustomerIdType };
  internalDocumentId: number;
  sendingCount: number;
}

/** `EkasaStatus` of a cash response: `{}` when all is well. */
export interface ApiEkasaStatus {
  warning?: { warningType: string; message: string; detail: string };
  error?: { errorType: 'EKASA'; errorCode: number; message: string; detail: string };
}

/** The API `cash` object (API v1.7 text, model Cash). */
export interface ApiCash<M = unknown> {
  internalDocumentId: number;
  sequenceId: number;
  merchant: M;
  cashRegisterCode: string;
  /** Positive deposit (VK), negative withdrawal (VY). */
  amount: number;
  issueDate: string;
  createDate: string;
  processDate?: string;
  uuid?: string;
  pkp: string;
  okp: string;
  exception: boolean;
  electronic: boolean;
  documentNumber: string;
  sendingCount: number;
  qrCode: string;
  status: ApiEkasaStatus;
  documentType: 'VK' | 'VY';
  externalId?: string;
}

/** Warning type of a cash document that is not registered yet (kasa's value, ADR 0406). */
export const OFFLINE_WARNING_TYPE = 'OFFLINE';
/** Warning type of a cash document the law does not let the register send (ADR 0704). */
export const NOT_SENT_WARNING_TYPE = 'NOT_SENT';

/**
 * The API `document` of a stored document with what later records said about it.
 * - online (registered within the limit): `uuid`, `processDate`, `qrCode` = uuid;
 * - not registered (offline, stuck): no uuid/processDate, `qrCode` = the offline QR;
 * - registered later (offline-sent): uuid and processDate; `qrCode` is the code its original
 *   carries — the offline QR when it was printed offline (ADR 0406), the UID when it was printed
 *   only once it had one, e.g. after a repair (ADR 0713).
 */
export function toApiDocument<M>(
  indexed: IndexedDocument,
  merchant: M,
  options: { electronicReceipt?: string | undefined } = {},
): ApiDocument<M> {
  const record = indexed.document;
  const sfs = record.sfs;
  const common = commonFields(indexed);
  const items = (sfs.Items ?? []).map((item, i) => toApiItem(item, record.apiItems?.[i]));
  const doc: ApiDocument<M> = {
    type: sfs.ReceiptType,
    merchant,
    cashRegisterCode: sfs.CashRegisterCode,
    amount: common.amount,
    issueDate: common.issueDate,
    createDate: common.createDate,
    sequenceId: Number(sfs.ReceiptNumber),
    pkp: record.pkp,
    okp: record.okp,
    qrCode: common.qrCode,
    documentEntries: items,
    vatRateSums: apiVatRateSums(sfs),
    paymentTypes: Object.fromEntries(record.payments.map((p) => [p.name, centsToNumber(p.amountCents)])),
    exception: record.exception ?? false,
    electronic: indexed.printState === 'electronic',
    documentNumber: record.documentNumber,
    internalDocumentId: record.documentNo,
    sendingCount: indexed.sendingCount,
  };
  if (common.processDate !== undefined) doc.processDate = common.processDate;
  if (common.uuid !== undefined) doc.uuid = common.uuid;
  if (record.header !== undefined) doc.header = record.header;
  if (record.footer !== undefined) doc.footer = record.footer;
  if (options.electronicReceipt !== undefined) doc.electronicReceipt = options.electronicReceipt;
  if (record.externalId !== undefined) doc.externalId = record.externalId;
  if (sfs.InvoiceNumber !== undefined) doc.invoiceId = sfs.InvoiceNumber;
  if (sfs.ParagonNumber !== undefined) doc.paragonNumber = Number(sfs.ParagonNumber);
  if (sfs.CustomerId !== undefined && sfs.CustomerIdType !== undefined) {
    doc.customer = { id: sfs.CustomerId, customerIdType: sfs.CustomerIdType };
  }
  return doc;
}

/**
 * The API `cash` object of a VK/VY document. `status` is `{}` when registered, a `NOT_SENT`
 * warning saying plainly that Act 384/2025 ended sending it (ADR 0704), an `OFFLINE` warning while
 * it waits to be sent, an error when the SFS rejected it.
 */
export function toApiCash<M>(indexed: IndexedDocument, merchant: M): ApiCash<M> {
  const record = indexed.document;
  const sfs = record.sfs;
  if (sfs.ReceiptType !== 'VK' && sfs.ReceiptType !== 'VY') {
    throw new RangeError(`document ${record.documentNo} is ${sfs.ReceiptType}, not a cash document`);
  }
  const common = commonFields(indexed);
  const cash: ApiCash<M> = {
    internalDocumentId: record.documentNo,
    sequenceId: Number(sfs.ReceiptNumber),
    merchant,
    cashRegisterCode: sfs.CashRegisterCode,
    amount: common.amount,
    issueDate: common.issueDate,
    createDate: common.createDate,
    pkp: record.pkp,
    okp: record.okp,
    exception: record.exception ?? false,
    electronic: indexed.printState === 'electronic',
    documentNumber: record.documentNumber,
    sendingCount: indexed.sendingCount,
    qrCode: common.qrCode,
    status: cashStatus(indexed),
    documentType: sfs.ReceiptType,
  };
  if (common.processDate !== undefined) cash.processDate = common.processDate;
  if (common.uuid !== undefined) cash.uuid = common.uuid;
  if (record.externalId !== undefined) cash.externalId = record.externalId;
  return cash;
}

function commonFields(indexed: IndexedDocument) {
  const record = indexed.document;
  const sfs = record.sfs;
  const uuid = indexed.accepted?.id;
  const processDate = indexed.accepted?.processDate;
  return {
    amount: apiAmount(record),
    issueDate: apiDate(sfs.IssueDate),
    createDate: apiDate(sfs.CreateDate),
    processDate: processDate === undefined ? undefined : apiDate(processDate),
    uuid,
    qrCode: qrCodeOf(indexed),
  };
}

/**
 * The QR code of the document's receipts (ADR 0406 as amended by ADR 0713): the UID when its
 * original is (or, not handed over yet, will be) printed with it, else the offline text — also
 * for a document registered later whose original was printed offline, since that is its paper.
 */
function qrCodeOf(indexed: IndexedDocument): string {
  const face = receiptFormOf(indexed);
  return face.form === 'uid'
    ? face.uid
    : offlineQrText({ okp: indexed.document.okp, data: indexed.document.sfs });
}

/** The API amount: SFS Amount, negated for a withdrawal (the SFS carries it positive). */
export function apiAmount(record: Pick<DocumentRecord, 'sfs'>): number {
  const cents = parseCentsText(record.sfs.Amount);
  if (cents === undefined) throw new RangeError(`not an SFS amount: ${record.sfs.Amount}`);
  return centsToNumber(record.sfs.ReceiptType === 'VY' ? -cents : cents);
}

/** SFS dateTime → API `dd.MM.yyyy HH:mm:ss` (Europe/Bratislava). */
function apiDate(sfsDateTime: string): string {
  const parsed = parseSfsDateTime(sfsDateTime) ?? new Date(sfsDateTime);
  if (Number.isNaN(parsed.getTime())) throw new RangeError(`not a date-time: ${sfsDateTime}`);
  return formatApiDateTime(parsed);
}

function toApiItem(
  item: SfsItem,
  api: NonNullable<DocumentRecord['apiItems']>[number] | undefined,
): ApiDocumentItem {
  const rate: VatRate | undefined = (api && resolveVatRate(api.vatRate)) ?? vatRateFromSfs(item.VatRate);
  const type = (api && resolveItemType(api.itemType)) ?? resolveItemType(item.ItemType);
  const totalCents = parseCentsText(item.Price) ?? 0;
  const out: ApiDocumentItem = {
    type: type?.api ?? 'SALE',
    name: item.Name,
    price: api ? Number(api.unitPrice) : derivedUnitPrice(totalCents, item.Quantity),
    quantity: Number(item.Quantity),
    totalPrice: centsToNumber(totalCents),
    vatRate: rate?.name ?? 'VAT_0',
  };
  if (item.ReferenceReceiptId !== undefined) out.referenceDocumentId = item.ReferenceReceiptId;
  if (item.SpecialRegulation !== undefined) out.specialRegulation = item.SpecialRegulation;
  if (item.SellerId !== undefined && item.SellerIdType !== undefined) {
    out.seller = { id: item.SellerId, sellerIdType: item.SellerIdType };
  }
  const voucher = item.VoucherNumber ?? api?.voucherNumber;
  if (voucher !== undefined) out.voucherNumber = voucher;
  if (api?.externalId !== undefined) out.externalId = api.externalId;
  return out;
}

/** Unit price when a record lacks it (never written so by kasa): line total ÷ quantity. */
function derivedUnitPrice(totalCents: number, quantity: string): number {
  const qty = toScaledInteger(Number(quantity), QUANTITY_SCALE) ?? 0n;
  if (qty === 0n) return 0;
  return scaledToNumber(divRoundHalfAwayFromZero(BigInt(totalCents) * 10n ** 8n, qty), UNIT_PRICE_SCALE);
}

/**
 * `vatRateSums`: one row per rate present (VAT_23, VAT_20, VAT_19, VAT_10, VAT_5, VAT_0) and a
 * `TOTAL` row; empty for UF/VK/VY. Recomputed from the stored items with the same per-rate
 * rounding as the SFS recap; a non-VAT-payer (no IcDph) shows vat 0.
 */
export function apiVatRateSums(sfs: SfsReceiptData): ApiVatRateSum[] {
  const items = (sfs.Items ?? []).flatMap((item) => {
    const rate = vatRateFromSfs(item.VatRate);
    const totalCents = parseCentsText(item.Price);
    return rate && totalCents !== undefined ? [{ vatRate: rate, totalCents }] : [];
  });
  if (items.length === 0) return [];
  const rows = vatBreakdown(items, sfs.IcDph !== undefined);
  const out: ApiVatRateSum[] = rows.map((r) => ({
    title: r.rate.name,
    base: centsToNumber(r.baseCents),
    vat: centsToNumber(r.vatCents),
    sum: centsToNumber(r.grossCents),
  }));
  out.push({
    title: 'TOTAL',
    base: centsToNumber(rows.reduce((s, r) => s + r.baseCents, 0)),
    vat: centsToNumber(rows.reduce((s, r) => s + r.vatCents, 0)),
    sum: centsToNumber(rows.reduce((s, r) => s + r.grossCents, 0)),
  });
  return out;
}

/** The status detail of an item set aside for the tax office (ADR 0711). */
export const SET_ASIDE_DETAIL =
  'Set aside for the tax office: the SFS rejected it and it was never registered; it is not valid. Report it to the tax office.';

function cashStatus(indexed: IndexedDocument): ApiEkasaStatus {
  if (indexed.sendState === 'online' || indexed.sendState === 'offline-sent') return {};
  if (indexed.sendState === 'not-sent') {
    return {
      warning: {
        warningType: NOT_SENT_WARNING_TYPE,
        message:
          'Not sent to the SFS: Act 384/2025 ended sending deposits and withdrawals from 1 January 2026. The document is stored, numbered and printed; nothing more is needed.',
        detail: indexed.document.notSent?.reason ?? '',
      },
    };
  }
  const last: SfsExchangeRecord | undefined = indexed.lastExchange;
  if (indexed.sendState === 'set-aside') {
    return {
      error: {
        errorType: 'EKASA',
        errorCode: last?.errorCode ?? 0,
        message: last?.errorText ?? 'The SFS rejected the document.',
        detail: SET_ASIDE_DETAIL,
      },
    };
  }
  if (indexed.sendState === 'stuck') {
    return {
      error: {
        errorType: 'EKASA',
        errorCode: last?.errorCode ?? 0,
        message: last?.errorText ?? 'The SFS rejected the document.',
        detail: 'The document is stored but not valid; it waits for repair.',
      },
    };
  }
  return {
    warning: {
      warningType: OFFLINE_WARNING_TYPE,
      message: 'The document was not registered online; it is stored and will be sent later.',
      detail:
        last === undefined
          ? 'not sent yet'
          : `last attempt ${last.sendingCount}: ${last.outcome}${last.errorText ? ` (${last.errorText})` : ''}`,
    },
  };
}
