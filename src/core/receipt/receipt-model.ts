import type { ApiItemType } from '../documents/item-types.js';
import type { ApiPhysicalAddress } from '../journal/records.js';

/**
 * What a printed (or electronic) eKasa receipt shows, ready to be laid out.
 *
 * The view is a flat, already-decided picture of one document: the document domain computes every
 * number (VAT recap, rounding, totals) and the layout only arranges and words it. Money is in
 * integer cents; values whose precision is not cents (quantity, unit price) arrive as the strings
 * the API received, so nothing here is ever a binary float.
 *
 * Mandatory content: SFS spec §2.9–2.10 and Act 289/2008 § 8(1); ADR 0500.
 */
export interface ReceiptView {
  type: ReceiptDocumentType;
  merchant: ReceiptMerchant;
  /** The point of sale (organisation unit). A PORTABLE register may have a name without an address. */
  orgUnit?: { name?: string; address?: string };
  /** PORTABLE register: prints "Prenosná pokladňa". */
  portable: boolean;
  /** Kód pokladnice e-kasa klient, 16–17 digits. */
  cashRegisterCode: string;

  /** SFS `ReceiptNumber`: restarts at 1 each month. */
  sequenceNumber: number;
  /** kasa's `yyyyMM/<sequenceId>`. */
  documentNumber: string;
  /** SFS IssueDate, API form `dd.MM.yyyy HH:mm:ss`. For a paragón: when the paper paragón was issued. */
  issueDate: string;
  /** Paragón entry only: when it was entered into the register (SFS CreateDate), same form. */
  paragon?: { number: number; createDate: string };
  /** UF only: the paid invoice's number. */
  invoiceNumber?: string;
  customer?: { id: string; type: ReceiptCustomerIdType };

  /** PD and ND only; ignored for UF, VK and VY (they carry no items: SFS errors -113/-114). */
  items: readonly ReceiptItemView[];
  /** Cash rounding (amount − item sum) in cents; printed, never sent to the SFS. 0 when none. */
  roundingCents: number;
  /** The document amount (SFS `Amount`) in cents. For VK/VY the amount as the SFS sees it. */
  totalCents: number;
  payments: readonly ReceiptPayment[];
  /** QR payments (NOP) that paid the document: each id printed under the payments (ADR 0907). */
  qrPayments?: ReadonlyArray<{ id: string; amountCents: number }>;
  /** One row per taxed rate (rate > 0), in the order they are to be printed. */
  vatRows: readonly ReceiptVatRow[];
  /** 0 % amounts, printed outside the VAT table (returnable packaging, exempt supplies, special schemes). */
  exemptRows: readonly ReceiptExemptRow[];

  /** Online only: the UID the SFS assigned (`O-…`). */
  uid?: string;
  /** Printed on offline receipts only (SFS spec §2.9); may be present in the view anyway. */
  pkp: string;
  /** Printed on every receipt (SFS spec §2.9–2.10). */
  okp: string;
  /** QR content: the UID online, `OKP:code:yyMMddHHmmss:number:amount` offline (SFS spec §2.4). */
  qrText: string;

  /** Free text of the request, printed above the document heading / below the OKP. */
  header?: string;
  footer?: string;
  /** Key of a stored logo image to print at the top (the renderers resolve it). */
  logoRef?: string;

  /** Not registered online (SFS unreachable or past the limit): offline heading, PKP, offline QR. */
  offline: boolean;
  /**
   * Not sent by law: a VK/VY created from 1 January 2026 (Act 384/2025, ADR 0704). It is not an
   * offline document (it will never be sent): no offline heading, a line saying it is not sent,
   * PKP and OKP (ADR 0515). Never together with `offline`.
   */
  notSent?: boolean;
  /** A reprint: marked "KÓPIA" at the top and the bottom. */
  copy: boolean;
  /** The merchant is a demo merchant: every receipt is marked as not valid. */
  demo: boolean;
}

/** SFS `ReceiptType` (SFS spec §3.3.3). A paragón entry is a PD with {@link ReceiptView.paragon}. */
export type ReceiptDocumentType = 'PD' | 'UF' | 'ND' | 'VK' | 'VY';

export type ReceiptCustomerIdType = 'ICO' | 'DIC' | 'IC_DPH' | 'INE';

export interface ReceiptMerchant {
  /** Obchodné meno (CorporateBodyFullName). */
  name: string;
  ico?: string;
  dic: string;
  /** Present for a VAT payer; without it no VAT table and no per-item rate is printed. */
  icDph?: string;
  /** Sídlo, one line (see {@link formatReceiptAddress}). */
  seatAddress: string;
}

/** Item types by their API names; the layout words each one (the one list: documents/item-types). */
export type ReceiptItemKind = ApiItemType;

/** SFS `SpecialRegulation` (only with rate 0). */
export type ReceiptSpecialRegulation = 'PDP' | 'OOD' | 'CK' | 'PT' | 'UD' | 'ZPS';

export interface ReceiptItemView {
  name: string;
  kind: ReceiptItemKind;
  /** As received, e.g. `2`, `0.125` (never negative: the sign is in the price). */
  quantity: string;
  /** Optional unit, e.g. `ks`, `kg`. */
  unit?: string;
  /** Unit price as received, e.g. `1.50`, `-60.00`. */
  unitPrice: string;
  /** Line total in cents (SFS `Price`, unit price × quantity rounded half-up). */
  lineTotalCents: number;
  /** VAT rate in whole percent: 23, 19, 5, 0 (20, 10 only for pre-2025 corrections). */
  vatRate: number;
  specialRegulation?: ReceiptSpecialRegulation;
  voucherNumber?: string;
  /** For REFUND/UPDATE: the original document's UID, OKP or number. */
  referenceDocumentId?: string;
  /** Sale on behalf of another person. */
  seller?: { id: string; type: 'DIC' | 'IC_DPH' };
}

export interface ReceiptPayment {
  /** Free text from the POS (`Hotovosť`, `Karta`, `Cash`, …). */
  name: string;
  amountCents: number;
}

export interface ReceiptVatRow {
  /** Whole percent, > 0. */
  rate: number;
  baseCents: number;
  vatCents: number;
  totalCents: number;
}

export interface ReceiptExemptRow {
  /** Absent: plain exempt (returnable packaging, non-taxed supplies): "Oslobodené od DPH". */
  specialRegulation?: ReceiptSpecialRegulation;
  totalCents: number;
}

/** Slovak one-line address: `Horná 560/7, 98045 Štrkovec` (súpisné/orientačné číslo). */
export function formatReceiptAddress(a: ApiPhysicalAddress): string {
  const numbers = [a.propertyRegistrationNumber, a.buildingNumber].filter((n) => n !== undefined && n !== '');
  const street = [a.street, numbers.join('/')].filter((s) => s !== '').join(' ');
  const town = [a.postalCode, a.municipality].filter((s) => s !== undefined && s !== '').join(' ');
  return [street, town].filter((s) => s !== '').join(', ');
}
