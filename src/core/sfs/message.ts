/**
 * The eKasa SFS data messages (interface v2, namespace http://financnasprava.sk/ekasa/schema/v2)
 * as plain data. Property names are the XML attribute names of the protocol and every value is
 * already in its XSD lexical form (amounts `12.30`, quantities `1.0000`, dates
 * `2026-03-02T10:15:30+01:00`), so the exact strings signed in the PKP are the strings sent, stored
 * in the CHDÚ and re-sent later. See the SFS interface description "Popis integračného rozhrania systému e-kasa" v2.3, §3.3–3.6.
 */
export const EKASA_NS = 'http://financnasprava.sk/ekasa/schema/v2';

export type ReceiptType = 'PD' | 'UF' | 'ND' | 'VK' | 'VY';
export type SfsItemType = 'K' | 'VO' | 'V' | 'O' | 'Z' | 'OZ' | 'VP';
export type CustomerIdType = 'ICO' | 'DIC' | 'IC_DPH' | 'INE';
export type SellerIdType = 'DIC' | 'IC_DPH';
export type SpecialRegulation = 'PDP' | 'OOD' | 'CK' | 'PT' | 'UD' | 'ZPS';

/** `ReceiptData/Items/Item` (spec §3.3.4). `Price` is the line total. */
export interface SfsItem {
  ItemType: SfsItemType;
  Name: string;
  Price: string;
  Quantity: string;
  VatRate: string;
  SpecialRegulation?: SpecialRegulation;
  SellerId?: string;
  SellerIdType?: SellerIdType;
  VoucherNumber?: string;
  ReferenceReceiptId?: string;
}

/** `ReceiptData` attributes and items (spec §3.3.3). */
export interface SfsReceiptData {
  ReceiptType: ReceiptType;
  Dic: string;
  IcDph?: string;
  Ico?: string;
  CashRegisterCode: string;
  IssueDate: string;
  CreateDate: string;
  ReceiptNumber: string;
  InvoiceNumber?: string;
  Paragon: 'true' | 'false';
  ParagonNumber?: string;
  CustomerId?: string;
  CustomerIdType?: CustomerIdType;
  Amount: string;
  TaxBaseBasic?: string;
  BasicVatAmount?: string;
  TaxBaseReduced?: string;
  ReducedVatAmount?: string;
  TaxFreeAmount?: string;
  Items?: SfsItem[];
}

/** `Header` of RegisterReceiptRequest (spec §3.3.2): new Uuid and RequestDate on every attempt. */
export interface SfsReceiptHeader {
  Uuid: string;
  RequestDate: string;
  SwId: string;
  SendingCount: string;
  Exception: 'true' | 'false';
}

/** A whole RegisterReceiptRequest before signing. */
export interface SfsReceiptRequest {
  header: SfsReceiptHeader;
  data: SfsReceiptData;
  /** PKP, Base64 (344 chars). */
  pkp: string;
  /** OKP, 5 groups of 8 hex digits. */
  okp: string;
}

export type SfsLocation =
  | { kind: 'gps'; AxisX: string; AxisY: string }
  | {
      kind: 'address';
      Municipality: string;
      StreetName: string;
      BuildingNumber?: string;
      PropertyRegistrationNumber?: string;
      PostalCode?: string;
    }
  | { kind: 'other'; text: string };

/** `LocationData` (spec §3.5): no PKP/OKP; Header has no Exception attribute. */
export interface SfsLocationRequest {
  header: Omit<SfsReceiptHeader, 'Exception'>;
  data: { Dic: string; CashRegisterCode: string; CreateDate: string; location: SfsLocation };
}
