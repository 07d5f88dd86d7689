import type { CustomerIdType, SellerIdType, SpecialRegulation } from '../sfs/message.js';
import type { ItemTypeRule } from './item-types.js';
import type { VatRate } from './vat-rates.js';

/**
 * The body of `POST /api/document/store` as the HTTP schema delivers it (shape checked, values
 * not yet). `null` means absent, as Java-based POS clients send it. Field names are the API's
 * (API v1.7 text, model StoreDocumentRequest, model DocumentReceiptItem, §4.8; capability 6).
 */
export interface StoreDocumentInput {
  type: string;
  /** The API text's Printer object (pacing: windowSize, printDelay); null or {} = defaults. */
  printer?: unknown;
  amount: number;
  documentEntries?: DocumentEntryInput[] | null | undefined;
  /** Payment method name → amount (ADR 0008 §9: required). */
  payments?: Record<string, number> | null | undefined;
  externalId?: string | null | undefined;
  invoiceId?: string | null | undefined;
  paragonNumber?: number | null | undefined;
  /** `dd.MM.yyyy HH:mm:ss` (Europe/Bratislava) or ISO 8601 with an offset. */
  paragonDate?: string | null | undefined;
  header?: string | null | undefined;
  footer?: string | null | undefined;
  electronicReceipt?: boolean | null | undefined;
  openDrawer?: boolean | null | undefined;
  exception?: boolean | null | undefined;
  customer?: CustomerInput | null | undefined;
  /** QR payments (NOP) that pay this document (kasa extension, ADR 0907). */
  qrPayments?: Array<{ id: string; amount: number }> | null | undefined;
}

export interface DocumentEntryInput {
  name: string;
  /** Unit price (ADR 0008 §10). */
  price: number;
  quantity: number;
  vatRate: string;
  itemType: string;
  voucherNumber?: string | null | undefined;
  referenceDocumentId?: string | null | undefined;
  specialRegulation?: string | null | undefined;
  seller?: SellerInput | null | undefined;
  externalId?: string | null | undefined;
}

/** Buyer id. `customerIdType` is the v1.7 name; `type` is accepted as an alias (capability 6 text). */
export interface CustomerInput {
  id?: string | null | undefined;
  customerIdType?: string | null | undefined;
  type?: string | null | undefined;
}

export interface SellerInput {
  id?: string | null | undefined;
  sellerIdType?: string | null | undefined;
}

/** The body of `POST /api/cash` (API v1.7 text, model CashRequest). */
export interface CashInput {
  amount: number;
  /** The API text's Printer object (pacing: windowSize, printDelay). */
  printer?: unknown;
  externalId?: string | null | undefined;
  exception?: boolean | null | undefined;
  openDrawer?: boolean | null | undefined;
}

/** A store request that passed every rule; amounts are integers (cents, 10^-4, 10^-6 units). */
export interface ValidatedStoreRequest {
  kind: 'store';
  type: 'PD' | 'UF' | 'ND';
  /** What the customer pays: the SFS `Amount` (ADR 0402). */
  amountCents: number;
  /** Sum of the line totals (0 for UF). */
  itemSumCents: number;
  /** amount − item sum: the cash rounding, printed and kept, not sent (ADR 0402). */
  roundingCents: number;
  items: ValidatedItem[];
  payments: Array<{ name: string; amountCents: number }>;
  externalId?: string;
  invoiceId?: string;
  /** A paragón entered afterwards: its number and the instant it was issued on paper. */
  paragon?: { number: number; issueDate: Date };
  header?: string;
  footer?: string;
  electronicReceipt: boolean;
  openDrawer: boolean;
  exception: boolean;
  customer?: { id: string; type: CustomerIdType };
  /** QR payments checked PAID with exactly these amounts (ADR 0907), in request order. */
  qrPayments?: Array<{ id: string; amountCents: number }>;
}

export interface ValidatedItem {
  itemType: ItemTypeRule;
  name: string;
  /** Unit price in 10^-6 euro. */
  unitPriceMicros: bigint;
  /** Quantity in 10^-4 units. */
  quantityUnits: bigint;
  /** Line total in cents = SFS `Price`. */
  totalCents: number;
  vatRate: VatRate;
  specialRegulation?: SpecialRegulation;
  seller?: { id: string; type: SellerIdType };
  /** On VOUCHER: the voucher redeemed; on SALE: the voucher that pays it (not sent, SFS -131). */
  voucherNumber?: string;
  referenceDocumentId?: string;
  externalId?: string;
}

/** A cash request that passed every rule. */
export interface ValidatedCashRequest {
  kind: 'cash';
  type: 'VK' | 'VY';
  /** Signed as in the API: positive deposit, negative withdrawal. */
  amountCents: number;
  externalId?: string;
  exception: boolean;
  openDrawer: boolean;
}
