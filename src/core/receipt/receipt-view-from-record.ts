import type { DocumentRecord, MerchantRecord } from '../journal/records.js';
import type { SfsItem, SfsItemType } from '../sfs/message.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';
import {
  formatReceiptAddress,
  type ReceiptExemptRow,
  type ReceiptItemKind,
  type ReceiptItemView,
  type ReceiptVatRow,
  type ReceiptView,
} from './receipt-model.js';

/** What the document flow knows besides the stored records when it prints. */
export interface ReceiptViewSource {
  record: DocumentRecord;
  merchant: MerchantRecord;
  /** The SFS UID when the document was registered online. */
  uid?: string;
  /** Not registered online: offline heading, PKP, offline QR. */
  offline: boolean;
  /** Not sent by law (VK/VY from 2026, Act 384/2025): laid out without the offline heading. */
  notSent?: boolean;
  /** The QR content the document domain computed (UID online, offline form otherwise). */
  qrText: string;
  /** VAT per rate as the document domain computed it (the same numbers as `vatRateSums`). */
  vatRows: readonly ReceiptVatRow[];
  exemptRows: readonly ReceiptExemptRow[];
  /** Printing a copy (`POST /api/document/get` with `printer`, a reprint). */
  copy?: boolean;
  /** Key of the stored logo, when one is set. */
  logoRef?: string;
}

/** SFS item types back to the API names when the record does not keep the API's own. */
const KIND_OF_SFS: Record<SfsItemType, ReceiptItemKind> = {
  K: 'SALE',
  VO: 'PACKING_REFUND',
  V: 'REFUND',
  O: 'UPDATE',
  Z: 'DISCOUNT',
  OZ: 'DEPOSIT',
  VP: 'VOUCHER',
};

const ITEM_KINDS = new Set<string>(Object.values(KIND_OF_SFS).concat('PACKING'));

/**
 * Builds the receipt view of a stored document from its CHDÚ record (the exact SFS strings), so a
 * copy printed a year later shows what the original showed. VAT rows come from the document
 * domain: the receipt never recomputes tax.
 */
export function receiptViewFromRecord(src: ReceiptViewSource): ReceiptView {
  const { record, merchant } = src;
  const sfs = record.sfs;
  const unit = merchant.organizationUnit;
  const unitAddress =
    unit.physicalAddress !== undefined ? formatReceiptAddress(unit.physicalAddress) : undefined;
  const view: ReceiptView = {
    type: sfs.ReceiptType,
    merchant: {
      name: merchant.corporateFullName,
      dic: sfs.Dic,
      seatAddress: formatReceiptAddress(merchant.physicalAddress),
      ...(sfs.Ico !== undefined ? { ico: sfs.Ico } : {}),
      ...(sfs.IcDph !== undefined ? { icDph: sfs.IcDph } : {}),
    },
    orgUnit: {
      ...(unit.name !== undefined ? { name: unit.name } : {}),
      ...(unitAddress !== undefined ? { address: unitAddress } : {}),
    },
    portable: unit.cashRegisterType === 'PORTABLE',
    cashRegisterCode: sfs.CashRegisterCode,
    sequenceNumber: Number(sfs.ReceiptNumber),
    documentNumber: record.documentNumber,
    issueDate: apiDate(sfs.IssueDate),
    items: (sfs.Items ?? []).map((item, i) => itemView(item, record.apiItems?.[i])),
    roundingCents: record.roundingCents,
    totalCents: parseCents(sfs.Amount),
    payments: record.payments.map((p) => ({ name: p.name, amountCents: p.amountCents })),
    vatRows: src.vatRows,
    exemptRows: src.exemptRows,
    pkp: record.pkp,
    okp: record.okp,
    qrText: src.qrText,
    offline: src.offline,
    ...(src.notSent === true ? { notSent: true } : {}),
    copy: src.copy ?? false,
    demo: record.demo || merchant.demo,
  };
  if (sfs.Paragon === 'true' && sfs.ParagonNumber !== undefined) {
    view.paragon = { number: Number(sfs.ParagonNumber), createDate: apiDate(sfs.CreateDate) };
  }
  if (sfs.InvoiceNumber !== undefined) view.invoiceNumber = sfs.InvoiceNumber;
  if (sfs.CustomerId !== undefined && sfs.CustomerIdType !== undefined) {
    view.customer = { id: sfs.CustomerId, type: sfs.CustomerIdType };
  }
  if (src.uid !== undefined) view.uid = src.uid;
  if (record.qrPayments !== undefined) view.qrPayments = record.qrPayments.map((q) => ({ ...q }));
  if (record.header !== undefined) view.header = record.header;
  if (record.footer !== undefined) view.footer = record.footer;
  if (src.logoRef !== undefined) view.logoRef = src.logoRef;
  return view;
}

function itemView(item: SfsItem, api: { itemType: string; unitPrice: string } | undefined): ReceiptItemView {
  const kind =
    api !== undefined && ITEM_KINDS.has(api.itemType)
      ? (api.itemType as ReceiptItemKind)
      : KIND_OF_SFS[item.ItemType];
  const view: ReceiptItemView = {
    name: item.Name,
    kind,
    quantity: trimDecimal(item.Quantity),
    // The SFS message has no unit price (spec §3.3.4); the API's is kept beside it in the record.
    unitPrice: api?.unitPrice ?? item.Price,
    lineTotalCents: parseCents(item.Price),
    vatRate: parseRate(item.VatRate),
  };
  if (item.SpecialRegulation !== undefined) view.specialRegulation = item.SpecialRegulation;
  if (item.VoucherNumber !== undefined) view.voucherNumber = item.VoucherNumber;
  if (item.ReferenceReceiptId !== undefined) view.referenceDocumentId = item.ReferenceReceiptId;
  if (item.SellerId !== undefined && item.SellerIdType !== undefined) {
    view.seller = { id: item.SellerId, type: item.SellerIdType };
  }
  return view;
}

function apiDate(sfsDateTime: string): string {
  const instant = parseSfsDateTime(sfsDateTime);
  if (instant === undefined) throw new RangeError(`not an SFS dateTime: ${sfsDateTime}`);
  return formatApiDateTime(instant);
}

/** An XSD decimal amount (`12.30`, `-0.5`, `7`) as integer cents, without floating point. */
export function parseCents(amount: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (m === null) throw new RangeError(`not an amount with at most 2 decimals: ${amount}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' && cents !== 0 ? -cents : cents;
}

/** `23.00` → 23; VAT rates are whole percents. */
function parseRate(rate: string): number {
  const m = /^(\d+)(?:\.0*)?$/.exec(rate);
  if (m === null) throw new RangeError(`not a whole VAT rate: ${rate}`);
  return Number(m[1]);
}

/** `1.0000` → `1`, `0.1250` → `0.125`: the quantity as a person writes it. */
function trimDecimal(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}
