// Generated from kasa's GET /api/openapi.json by clients/typescript/codegen/generate.ts.
// Do not edit: run `npm run generate` in clients/typescript against the current kasa instead.
/* eslint-disable */

export type ErrorResponseInput = {
  /** Result code (see docs/errors.md); never 0. */
  resultCode: number;
  /** What went wrong, naming the field or the cause. */
  error: string;
  /** The same text, for clients written against other vendors. */
  errorMessage: string;
  [key: string]: unknown;
};

export type GenericResponseInput = {
  resultCode: 0;
};

export type VersionResponseInput = {
  resultCode: 0;
  product: string;
  /** kasa version (package.json) */
  version: string;
  apiVersion: "1.7";
  /** SwId sent to the SFS: SHA-1 of the software and CHDÚ names and versions */
  swId: string;
  /** git commit the running code was built from, when known */
  buildCommit?: string;
  nodeVersion: string;
};

export type StatusResponseInput = {
  resultCode: 0;
  /** READY, or the name of the result code clients now get */
  state: string;
  reasonCode: number;
  reason: string;
  components: Array<{
    component: "CHDU" | "PRINTER" | "SFS" | "MERCHANT" | "OFFLINE_BACKLOG" | "BACKUP";
    state: "OK" | "WARNING" | "ERROR" | "NOT_CONFIGURED";
    /** result code of the cause, 0 when OK */
    reasonCode: number;
    reason: string;
    details?: {
      [key: string]: unknown;
    };
  }>;
};

export type ChduInfoResponseInput = {
  resultCode: 0;
  /** CHDÚ model or adapter, e.g. `CHDU Lite`, `kasa image file` */
  model: string;
  /** the --chdu target */
  target: string;
  /** device serial number */
  serial: number;
  /** serial of the logical volume */
  volumeSerial: number;
  firmwareVersion: string;
  /** CHDU Lite protocol version, e.g. `1.3` */
  protocolVersion: string;
  /** data bytes per block */
  blockDataSize: number;
  capacityBlocks: number;
  usedBlocks: number;
  freeBlocks: number;
  capacityBytes: number;
  usedBytes: number;
  freeBytes: number;
  /** journal records on the CHDÚ */
  recordCount: number;
  storageOk: boolean;
  /** the printer behind the CHDÚ (CHDU Lite pass-through) is ready */
  printerReady: boolean;
  /** permanently read-only */
  locked: boolean;
  /** when the last record was written (Europe/Bratislava) */
  lastWriteAt?: string;
  /** image file only: bytes after the last complete block when the image was opened (a write torn by a crash, or a damaged last block); 0 normally */
  tornBytesAtOpen?: number;
  index: {
    /** current: at the head; behind: replay pending; ahead: records the CHDÚ lacks (acknowledged records missing, 201 — or an index of another CHDÚ, rebuilt); mismatch: rebuilt at the next check; missing: no index */
    state: "current" | "behind" | "ahead" | "mismatch" | "missing";
    /** last journal record in the index */
    highWaterMark: number;
  };
};

export type PhysicalAddressInput = {
  country?: string;
  municipality: string;
  street: string;
  buildingNumber?: string;
  propertyRegistrationNumber?: string;
  postalCode?: string;
};

export type OrganizationUnitInput = {
  name?: string;
  cashRegisterCode: string;
  cashRegisterType: "STANDARD" | "PORTABLE";
  location?: {
    physicalAddress: PhysicalAddressInput;
  };
};

export type MerchantCertificateInput = {
  /** OK: more than 30 days left; EXPIRES_SOON: the last 30 days; EXPIRED: not usable */
  state: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** the same as state (MerchantCertificateStatus.status) */
  status: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** certificate notAfter, dd.MM.yyyy HH:mm:ss Europe/Bratislava */
  expirationDate: string;
  /** certificate notBefore, dd.MM.yyyy HH:mm:ss */
  validFrom: string;
  /** true in the last 30 days (renewal window) and after expiry */
  showWarning: boolean;
  /** whole days until expiry, 0 once expired */
  daysLeft: number;
  notYetValid: boolean;
  subject: string;
  issuer: string;
  /** upper-case hex */
  serialNumber: string;
  sha256: string;
};

export type MerchantInput = {
  /** CHDÚ record number of this merchant record */
  id: number;
  corporateFullName: string;
  ico?: string;
  dic: string;
  /** present for a VAT payer */
  icDph?: string;
  physicalAddress: PhysicalAddressInput;
  organizationUnit: OrganizationUnitInput;
  /** true for the demo merchant: its receipts are demos, not fiscal documents */
  demo: boolean;
  certificate: MerchantCertificateInput;
};

/** Sale on behalf of another seller (SFS SellerId/SellerIdType: both or neither). */
export type SellerInput = {
  /** Seller id, 1–50 letters or digits; with sellerIdType. */
  id?: string | null;
  sellerIdType?: (("DIC" | "IC_DPH") | "") | null;
};

/** Buyer id (SFS CustomerId/CustomerIdType: both or neither; not for ND). */
export type CustomerInput = {
  /** Buyer id, 1–50 letters or digits; with customerIdType. Not on ND. */
  id?: string | null;
  customerIdType?: (("ICO" | "DIC" | "IC_DPH" | "INE") | "") | null;
  /** Alias of customerIdType. */
  type?: (("ICO" | "DIC" | "IC_DPH" | "INE") | "") | null;
};

export type DocumentReceiptItemInput = {
  /** 1–255 characters. */
  name: string;
  /** Unit price, up to 6 decimals, −10000000 to 10000000; the line total is price × quantity rounded half up to cents. SALE/PACKING ≥ 0; PACKING_REFUND, VOUCHER, REFUND, DISCOUNT, DEPOSIT ≤ 0; UPDATE either. */
  price: number;
  /** 0 to 10000000, up to 4 decimals. */
  quantity: number;
  /** VAT_23, VAT_19, VAT_5, VAT_0 (or labels 23%, 19%, 5%, 0%). VAT_20/VAT_10 only on REFUND and UPDATE items. PACKING and PACKING_REFUND use VAT_0. */
  vatRate: "VAT_23" | "23%" | "VAT_20" | "20%" | "VAT_19" | "19%" | "VAT_10" | "10%" | "VAT_5" | "5%" | "VAT_0" | "0%";
  /** Item type (SFS code): SALE (K), PACKING (K), PACKING_REFUND (VO), VOUCHER (VP), REFUND (V), UPDATE (O), DISCOUNT (Z), DEPOSIT (OZ); the SFS codes are accepted too (K = SALE). */
  itemType: "SALE" | "PACKING" | "PACKING_REFUND" | "VOUCHER" | "REFUND" | "UPDATE" | "DISCOUNT" | "DEPOSIT" | "K" | "VO" | "VP" | "V" | "O" | "Z" | "OZ";
  /** 1–50 ASCII. Required on VOUCHER; the SALE it pays carries the same number. */
  voucherNumber?: string | null;
  /** 1–44 ASCII: UID, OKP or number of the corrected document. Required exactly on REFUND and UPDATE. */
  referenceDocumentId?: string | null;
  /** Only with VAT_0. */
  specialRegulation?: (("PDP" | "OOD" | "CK" | "PT" | "UD" | "ZPS") | "") | null;
  seller?: SellerInput | null;
  /** The POS's item id, 1–50 characters. */
  externalId?: string | null;
};

export type StoreDocumentRequestInput = {
  /** PD receipt, UF invoice payment, ND invalid (training) document. VK/VY only through /api/cash. */
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  /** Total the customer pays: the item sum, or the item sum rounded to 5 cents for cash (PD/ND); the invoice payment (UF, ≠ 0). */
  amount: number;
  /** Items: required (≥ 1) for PD and ND, none for UF. */
  documentEntries?: Array<DocumentReceiptItemInput> | null;
  /** Payment name (free text) → amount ≥ 0. Required; not checked against amount. */
  payments: {
    [key: string]: number;
  };
  /** The POS's document id, 1–50 characters; searchable. */
  externalId?: string | null;
  /** Invoice number, 1–50 ASCII: required for UF, forbidden otherwise. */
  invoiceId?: string | null;
  /** Paragón number (≥ 1), with paragonDate; not for ND. */
  paragonNumber?: number | null;
  /** When the paper paragón was issued: dd.MM.yyyy HH:mm:ss or ISO 8601; not in the future. */
  paragonDate?: string | null;
  /** Printed at the top, up to 500 characters. */
  header?: string | null;
  /** Printed at the bottom, up to 500 characters. */
  footer?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
  /** Electronic receipt instead of paper (online only). */
  electronicReceipt?: boolean | null;
  openDrawer?: boolean | null;
  /** The merchant holds an exemption from sending data. */
  exception?: boolean | null;
  customer?: CustomerInput | null;
};

export type CashRequestInput = {
  /** Positive: deposit (VK); negative: withdrawal (VY); not 0; 2 decimals. */
  amount: number;
  /** The POS's id, 1–50 characters. */
  externalId?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
  exception?: boolean | null;
  openDrawer?: boolean | null;
};

/** At most one look-up member; none returns the last document. */
export type GetDocumentRequestInput = {
  documentBySequenceId?: {
    sequenceId?: number | null;
    month?: number | null;
    year?: number | null;
  } | null;
  documentByExternalId?: {
    externalId?: string | null;
  } | null;
  documentByOkp?: {
    okp?: string | null;
  } | null;
  documentByPkp?: {
    pkp?: string | null;
  } | null;
  documentByUUID?: {
    uuid?: string | null;
  } | null;
  /** When given, the found document is also printed as a copy (KÓPIA). */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
};

export type DocumentItemInput = {
  type: "SALE" | "PACKING" | "PACKING_REFUND" | "VOUCHER" | "REFUND" | "UPDATE" | "DISCOUNT" | "DEPOSIT";
  name: string;
  /** Unit price. */
  price: number;
  quantity: number;
  /** Line total (price × quantity rounded half up to cents). */
  totalPrice: number;
  vatRate: "VAT_23" | "VAT_20" | "VAT_19" | "VAT_10" | "VAT_5" | "VAT_0";
  referenceDocumentId?: string;
  specialRegulation?: "PDP" | "OOD" | "CK" | "PT" | "UD" | "ZPS";
  seller?: {
    id: string;
    sellerIdType: "DIC" | "IC_DPH";
  };
  voucherNumber?: string;
  externalId?: string;
};

export type VatRateSumInput = {
  title: ("VAT_23" | "VAT_20" | "VAT_19" | "VAT_10" | "VAT_5" | "VAT_0") | "TOTAL";
  base: number;
  vat: number;
  sum: number;
};

export type ResponseDocumentInput = {
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  merchant: MerchantInput;
  cashRegisterCode: string;
  /** What the customer paid; negative for a withdrawal (VY). */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  issueDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** When the SFS registered it; absent while offline. */
  processDate?: string;
  sequenceId: number;
  /** eKasa receipt UID; absent while offline. */
  uuid?: string;
  pkp: string;
  okp: string;
  /** The UID when registered online, else the offline QR text. */
  qrCode: string;
  documentEntries: Array<DocumentItemInput>;
  vatRateSums: Array<VatRateSumInput>;
  paymentTypes: {
    [key: string]: number;
  };
  header?: string;
  footer?: string;
  exception: boolean;
  electronic: boolean;
  /** Base64 PNG of the electronic receipt. */
  electronicReceipt?: string;
  /** yyyyMM/<sequenceId> */
  documentNumber: string;
  externalId?: string;
  invoiceId?: string;
  paragonNumber?: number;
  customer?: {
    id: string;
    customerIdType: "ICO" | "DIC" | "IC_DPH" | "INE";
  };
  internalDocumentId: number;
  sendingCount: number;
};

export type EkasaStatusInput = {
  warning?: {
    warningType: string;
    message: string;
    detail: string;
  };
  error?: {
    errorType: "EKASA";
    errorCode: number;
    message: string;
    detail: string;
  };
};

export type CashInput = {
  internalDocumentId: number;
  sequenceId: number;
  merchant: MerchantInput;
  cashRegisterCode: string;
  /** Positive deposit, negative withdrawal. */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  issueDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  processDate?: string;
  uuid?: string;
  pkp: string;
  okp: string;
  exception: boolean;
  electronic: boolean;
  documentNumber: string;
  sendingCount: number;
  qrCode: string;
  status: EkasaStatusInput;
  documentType: "VK" | "VY";
  externalId?: string;
};

export type DocumentResponseInput = {
  resultCode: number;
  document: ResponseDocumentInput;
  /** Printer code 100–106 when printing failed (507). */
  printResultCode?: number;
};

export type CashResponseInput = {
  resultCode: number;
  cash: CashInput;
};

export type MerchantResponseInput = {
  resultCode: 0;
  merchant: MerchantInput;
};

export type StoreMerchantRequestInput = {
  /** the identification data XML file (IdentityData) as a string */
  identificationData: string;
  /** the authentication data XML file (AuthData) as a string */
  authenticationData: string;
  /** password of the PKCS#12 keystore in the authentication data */
  keyStorePassword: string;
  /** password of the private key; default: keyStorePassword */
  privateKeyPassword?: string;
};

/** an empty object {}: the merchant in force */
export type GetMerchantRequestInput = Record<string, never>;

export type CertificateStatusResponseInput = {
  resultCode: 0;
  /** OK: more than 30 days left; EXPIRES_SOON: the last 30 days; EXPIRED: not usable */
  state: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** the same as state (MerchantCertificateStatus.status) */
  status: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** certificate notAfter, dd.MM.yyyy HH:mm:ss Europe/Bratislava */
  expirationDate: string;
  /** certificate notBefore, dd.MM.yyyy HH:mm:ss */
  validFrom: string;
  /** true in the last 30 days (renewal window) and after expiry */
  showWarning: boolean;
  /** whole days until expiry, 0 once expired */
  daysLeft: number;
  notYetValid: boolean;
  subject: string;
  issuer: string;
  /** upper-case hex */
  serialNumber: string;
  dic: string;
  cashRegisterCode: string;
  demo: boolean;
  /** false when the register cannot sign now; `problem` says why and what to do */
  usable: boolean;
  problem?: string;
  /** the result code fiscal requests get now (402, 405) */
  problemCode?: number;
};

export type ErrorResponse = {
  /** Result code (see docs/errors.md); never 0. */
  resultCode: number;
  /** What went wrong, naming the field or the cause. */
  error: string;
  /** The same text, for clients written against other vendors. */
  errorMessage: string;
  [key: string]: unknown;
};

export type GenericResponse = {
  resultCode: 0;
};

export type VersionResponse = {
  resultCode: 0;
  product: string;
  /** kasa version (package.json) */
  version: string;
  apiVersion: "1.7";
  /** SwId sent to the SFS: SHA-1 of the software and CHDÚ names and versions */
  swId: string;
  /** git commit the running code was built from, when known */
  buildCommit?: string;
  nodeVersion: string;
};

export type StatusResponse = {
  resultCode: 0;
  /** READY, or the name of the result code clients now get */
  state: string;
  reasonCode: number;
  reason: string;
  components: Array<{
    component: "CHDU" | "PRINTER" | "SFS" | "MERCHANT" | "OFFLINE_BACKLOG" | "BACKUP";
    state: "OK" | "WARNING" | "ERROR" | "NOT_CONFIGURED";
    /** result code of the cause, 0 when OK */
    reasonCode: number;
    reason: string;
    details?: {
      [key: string]: unknown;
    };
  }>;
};

export type ChduInfoResponse = {
  resultCode: 0;
  /** CHDÚ model or adapter, e.g. `CHDU Lite`, `kasa image file` */
  model: string;
  /** the --chdu target */
  target: string;
  /** device serial number */
  serial: number;
  /** serial of the logical volume */
  volumeSerial: number;
  firmwareVersion: string;
  /** CHDU Lite protocol version, e.g. `1.3` */
  protocolVersion: string;
  /** data bytes per block */
  blockDataSize: number;
  capacityBlocks: number;
  usedBlocks: number;
  freeBlocks: number;
  capacityBytes: number;
  usedBytes: number;
  freeBytes: number;
  /** journal records on the CHDÚ */
  recordCount: number;
  storageOk: boolean;
  /** the printer behind the CHDÚ (CHDU Lite pass-through) is ready */
  printerReady: boolean;
  /** permanently read-only */
  locked: boolean;
  /** when the last record was written (Europe/Bratislava) */
  lastWriteAt?: string;
  /** image file only: bytes after the last complete block when the image was opened (a write torn by a crash, or a damaged last block); 0 normally */
  tornBytesAtOpen?: number;
  index: {
    /** current: at the head; behind: replay pending; ahead: records the CHDÚ lacks (acknowledged records missing, 201 — or an index of another CHDÚ, rebuilt); mismatch: rebuilt at the next check; missing: no index */
    state: "current" | "behind" | "ahead" | "mismatch" | "missing";
    /** last journal record in the index */
    highWaterMark: number;
  };
};

export type PhysicalAddress = {
  country?: string;
  municipality: string;
  street: string;
  buildingNumber?: string;
  propertyRegistrationNumber?: string;
  postalCode?: string;
};

export type OrganizationUnit = {
  name?: string;
  cashRegisterCode: string;
  cashRegisterType: "STANDARD" | "PORTABLE";
  location?: {
    physicalAddress: PhysicalAddress;
  };
};

export type MerchantCertificate = {
  /** OK: more than 30 days left; EXPIRES_SOON: the last 30 days; EXPIRED: not usable */
  state: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** the same as state (MerchantCertificateStatus.status) */
  status: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** certificate notAfter, dd.MM.yyyy HH:mm:ss Europe/Bratislava */
  expirationDate: string;
  /** certificate notBefore, dd.MM.yyyy HH:mm:ss */
  validFrom: string;
  /** true in the last 30 days (renewal window) and after expiry */
  showWarning: boolean;
  /** whole days until expiry, 0 once expired */
  daysLeft: number;
  notYetValid: boolean;
  subject: string;
  issuer: string;
  /** upper-case hex */
  serialNumber: string;
  sha256: string;
};

export type Merchant = {
  /** CHDÚ record number of this merchant record */
  id: number;
  corporateFullName: string;
  ico?: string;
  dic: string;
  /** present for a VAT payer */
  icDph?: string;
  physicalAddress: PhysicalAddress;
  organizationUnit: OrganizationUnit;
  /** true for the demo merchant: its receipts are demos, not fiscal documents */
  demo: boolean;
  certificate: MerchantCertificate;
};

/** Sale on behalf of another seller (SFS SellerId/SellerIdType: both or neither). */
export type Seller = {
  /** Seller id, 1–50 letters or digits; with sellerIdType. */
  id?: string | null;
  sellerIdType?: (("DIC" | "IC_DPH") | "") | null;
};

/** Buyer id (SFS CustomerId/CustomerIdType: both or neither; not for ND). */
export type Customer = {
  /** Buyer id, 1–50 letters or digits; with customerIdType. Not on ND. */
  id?: string | null;
  customerIdType?: (("ICO" | "DIC" | "IC_DPH" | "INE") | "") | null;
  /** Alias of customerIdType. */
  type?: (("ICO" | "DIC" | "IC_DPH" | "INE") | "") | null;
};

export type DocumentReceiptItem = {
  /** 1–255 characters. */
  name: string;
  /** Unit price, up to 6 decimals, −10000000 to 10000000; the line total is price × quantity rounded half up to cents. SALE/PACKING ≥ 0; PACKING_REFUND, VOUCHER, REFUND, DISCOUNT, DEPOSIT ≤ 0; UPDATE either. */
  price: number;
  /** 0 to 10000000, up to 4 decimals. */
  quantity: number;
  /** VAT_23, VAT_19, VAT_5, VAT_0 (or labels 23%, 19%, 5%, 0%). VAT_20/VAT_10 only on REFUND and UPDATE items. PACKING and PACKING_REFUND use VAT_0. */
  vatRate: "VAT_23" | "23%" | "VAT_20" | "20%" | "VAT_19" | "19%" | "VAT_10" | "10%" | "VAT_5" | "5%" | "VAT_0" | "0%";
  /** Item type (SFS code): SALE (K), PACKING (K), PACKING_REFUND (VO), VOUCHER (VP), REFUND (V), UPDATE (O), DISCOUNT (Z), DEPOSIT (OZ); the SFS codes are accepted too (K = SALE). */
  itemType: "SALE" | "PACKING" | "PACKING_REFUND" | "VOUCHER" | "REFUND" | "UPDATE" | "DISCOUNT" | "DEPOSIT" | "K" | "VO" | "VP" | "V" | "O" | "Z" | "OZ";
  /** 1–50 ASCII. Required on VOUCHER; the SALE it pays carries the same number. */
  voucherNumber?: string | null;
  /** 1–44 ASCII: UID, OKP or number of the corrected document. Required exactly on REFUND and UPDATE. */
  referenceDocumentId?: string | null;
  /** Only with VAT_0. */
  specialRegulation?: (("PDP" | "OOD" | "CK" | "PT" | "UD" | "ZPS") | "") | null;
  seller?: Seller | null;
  /** The POS's item id, 1–50 characters. */
  externalId?: string | null;
};

export type StoreDocumentRequest = {
  /** PD receipt, UF invoice payment, ND invalid (training) document. VK/VY only through /api/cash. */
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  /** Total the customer pays: the item sum, or the item sum rounded to 5 cents for cash (PD/ND); the invoice payment (UF, ≠ 0). */
  amount: number;
  /** Items: required (≥ 1) for PD and ND, none for UF. */
  documentEntries?: Array<DocumentReceiptItem> | null;
  /** Payment name (free text) → amount ≥ 0. Required; not checked against amount. */
  payments: {
    [key: string]: number;
  };
  /** The POS's document id, 1–50 characters; searchable. */
  externalId?: string | null;
  /** Invoice number, 1–50 ASCII: required for UF, forbidden otherwise. */
  invoiceId?: string | null;
  /** Paragón number (≥ 1), with paragonDate; not for ND. */
  paragonNumber?: number | null;
  /** When the paper paragón was issued: dd.MM.yyyy HH:mm:ss or ISO 8601; not in the future. */
  paragonDate?: string | null;
  /** Printed at the top, up to 500 characters. */
  header?: string | null;
  /** Printed at the bottom, up to 500 characters. */
  footer?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
  /** Electronic receipt instead of paper (online only). */
  electronicReceipt?: boolean | null;
  openDrawer?: boolean | null;
  /** The merchant holds an exemption from sending data. */
  exception?: boolean | null;
  customer?: Customer | null;
};

export type CashRequest = {
  /** Positive: deposit (VK); negative: withdrawal (VY); not 0; 2 decimals. */
  amount: number;
  /** The POS's id, 1–50 characters. */
  externalId?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
  exception?: boolean | null;
  openDrawer?: boolean | null;
};

/** At most one look-up member; none returns the last document. */
export type GetDocumentRequest = {
  documentBySequenceId?: {
    sequenceId?: number | null;
    month?: number | null;
    year?: number | null;
  } | null;
  documentByExternalId?: {
    externalId?: string | null;
  } | null;
  documentByOkp?: {
    okp?: string | null;
  } | null;
  documentByPkp?: {
    pkp?: string | null;
  } | null;
  documentByUUID?: {
    uuid?: string | null;
  } | null;
  /** When given, the found document is also printed as a copy (KÓPIA). */
  printer?: {
    socket?: string | null;
    numberOfCharInRow?: number | null;
    codingNumber?: number | null;
    windowSize?: number | null;
    printDelay?: number | null;
    [key: string]: unknown;
  } | null;
};

export type DocumentItem = {
  type: "SALE" | "PACKING" | "PACKING_REFUND" | "VOUCHER" | "REFUND" | "UPDATE" | "DISCOUNT" | "DEPOSIT";
  name: string;
  /** Unit price. */
  price: number;
  quantity: number;
  /** Line total (price × quantity rounded half up to cents). */
  totalPrice: number;
  vatRate: "VAT_23" | "VAT_20" | "VAT_19" | "VAT_10" | "VAT_5" | "VAT_0";
  referenceDocumentId?: string;
  specialRegulation?: "PDP" | "OOD" | "CK" | "PT" | "UD" | "ZPS";
  seller?: {
    id: string;
    sellerIdType: "DIC" | "IC_DPH";
  };
  voucherNumber?: string;
  externalId?: string;
};

export type VatRateSum = {
  title: ("VAT_23" | "VAT_20" | "VAT_19" | "VAT_10" | "VAT_5" | "VAT_0") | "TOTAL";
  base: number;
  vat: number;
  sum: number;
};

export type ResponseDocument = {
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  merchant: Merchant;
  cashRegisterCode: string;
  /** What the customer paid; negative for a withdrawal (VY). */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  issueDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** When the SFS registered it; absent while offline. */
  processDate?: string;
  sequenceId: number;
  /** eKasa receipt UID; absent while offline. */
  uuid?: string;
  pkp: string;
  okp: string;
  /** The UID when registered online, else the offline QR text. */
  qrCode: string;
  documentEntries: Array<DocumentItem>;
  vatRateSums: Array<VatRateSum>;
  paymentTypes: {
    [key: string]: number;
  };
  header?: string;
  footer?: string;
  exception: boolean;
  electronic: boolean;
  /** Base64 PNG of the electronic receipt. */
  electronicReceipt?: string;
  /** yyyyMM/<sequenceId> */
  documentNumber: string;
  externalId?: string;
  invoiceId?: string;
  paragonNumber?: number;
  customer?: {
    id: string;
    customerIdType: "ICO" | "DIC" | "IC_DPH" | "INE";
  };
  internalDocumentId: number;
  sendingCount: number;
};

export type EkasaStatus = {
  warning?: {
    warningType: string;
    message: string;
    detail: string;
  };
  error?: {
    errorType: "EKASA";
    errorCode: number;
    message: string;
    detail: string;
  };
};

export type Cash = {
  internalDocumentId: number;
  sequenceId: number;
  merchant: Merchant;
  cashRegisterCode: string;
  /** Positive deposit, negative withdrawal. */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  issueDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  processDate?: string;
  uuid?: string;
  pkp: string;
  okp: string;
  exception: boolean;
  electronic: boolean;
  documentNumber: string;
  sendingCount: number;
  qrCode: string;
  status: EkasaStatus;
  documentType: "VK" | "VY";
  externalId?: string;
};

export type DocumentResponse = {
  resultCode: number;
  document: ResponseDocument;
  /** Printer code 100–106 when printing failed (507). */
  printResultCode?: number;
};

export type CashResponse = {
  resultCode: number;
  cash: Cash;
};

export type MerchantResponse = {
  resultCode: 0;
  merchant: Merchant;
};

export type StoreMerchantRequest = {
  /** the identification data XML file (IdentityData) as a string */
  identificationData: string;
  /** the authentication data XML file (AuthData) as a string */
  authenticationData: string;
  /** password of the PKCS#12 keystore in the authentication data */
  keyStorePassword: string;
  /** password of the private key; default: keyStorePassword */
  privateKeyPassword?: string;
};

/** an empty object {}: the merchant in force */
export type GetMerchantRequest = Record<string, never>;

export type CertificateStatusResponse = {
  resultCode: 0;
  /** OK: more than 30 days left; EXPIRES_SOON: the last 30 days; EXPIRED: not usable */
  state: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** the same as state (MerchantCertificateStatus.status) */
  status: "OK" | "EXPIRES_SOON" | "EXPIRED";
  /** certificate notAfter, dd.MM.yyyy HH:mm:ss Europe/Bratislava */
  expirationDate: string;
  /** certificate notBefore, dd.MM.yyyy HH:mm:ss */
  validFrom: string;
  /** true in the last 30 days (renewal window) and after expiry */
  showWarning: boolean;
  /** whole days until expiry, 0 once expired */
  daysLeft: number;
  notYetValid: boolean;
  subject: string;
  issuer: string;
  /** upper-case hex */
  serialNumber: string;
  dic: string;
  cashRegisterCode: string;
  demo: boolean;
  /** false when the register cannot sign now; `problem` says why and what to do */
  usable: boolean;
  problem?: string;
  /** the result code fiscal requests get now (402, 405) */
  problemCode?: number;
};

/** Every result code kasa answers with (docs/errors.md), by name. */
export const RESULT_CODES = {
  UNKNOWN: { code: -1, meaning: "An error outside the fiscal rules: unknown path, wrong method, or an unexpected internal error (see the service log)." },
  OK: { code: 0, meaning: "Success." },
  PRINTER_NOT_READY: { code: 100, meaning: "The printer is not ready (cover open, overheated, or another state that stops printing)." },
  PRINTER_DATA_REFUSED: { code: 101, meaning: "The printer refused the data sent to it." },
  PRINTER_NOT_CONNECTED: { code: 102, meaning: "The printer cannot be reached (not connected or switched off)." },
  PRINTER_COMMUNICATION_ERROR: { code: 103, meaning: "Communication with the printer failed (no or garbled answer, timeout)." },
  PRINTER_NOT_CONFIGURED: { code: 104, meaning: "No printer is configured (`--printer none`)." },
  PRINTER_NO_PAPER: { code: 105, meaning: "The printer is out of paper." },
  PARTIAL_PRINT: { code: 106, meaning: "The job was cut short: part of it is on paper; the answer says where to resume." },
  CHDU_NOT_CONNECTED: { code: 200, meaning: "The protected data storage (CHDÚ) is not connected." },
  CHDU_WRITE_ERROR: { code: 201, meaning: "The CHDÚ failed to read or write (hardware or data error)." },
  CHDU_WRITE_LIMIT: { code: 202, meaning: "The CHDÚ is full or locked: no record can be written." },
  CHDU_RECORD_SIZE_LIMIT: { code: 203, meaning: "The record is larger than the maximum record size." },
  BUSY: { code: 300, meaning: "Another request is writing to the CHDÚ; try again shortly." },
  MERCHANT_WRONG_FORMAT: { code: 400, meaning: "The identification data are wrong (a field is named)." },
  MERCHANT_DIFFERENT_DIC: { code: 401, meaning: "The CHDÚ already belongs to a merchant with another DIČ." },
  MERCHANT_CERTIFICATE_ERROR: { code: 402, meaning: "No usable merchant certificate (none stored, unreadable, or not matching)." },
  MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE: { code: 403, meaning: "The keystore password is wrong or the keystore is corrupted." },
  MERCHANT_PARSE_ERROR: { code: 404, meaning: "The identification or authentication XML cannot be parsed." },
  MERCHANT_CERTIFICATE_EXPIRED: { code: 405, meaning: "The merchant certificate has expired (or is not yet valid)." },
  NO_FIX_NEEDED: { code: 500, meaning: "Nothing waits for repair: no document or location is stuck." },
  LAST_REQUEST_INVALID: { code: 501, meaning: "The SFS rejected the last stored request; it is stored but not valid and must be repaired before the next fiscal write." },
  INCORRECT_TIME: { code: 502, meaning: "The register's time is wrong, or the SFS refused a date of the request for time reasons." },
  LOCATION_NEEDS_REPAIR: { code: 503, meaning: "A location rejected by the SFS waits for repair." },
  SFS_INVALID_RESPONSE: { code: 504, meaning: "The SFS answered with a response kasa cannot read." },
  NOTHING_TO_PRINT: { code: 505, meaning: "No unprinted document found, or the last document was electronic." },
  NOT_FOUND: { code: 506, meaning: "The requested document or location was not found." },
  DOCUMENT_NOT_PRINTED: { code: 507, meaning: "The document was stored and registered but printing failed." },
  LAST_DOCUMENT_NOT_PRINTED: { code: 508, meaning: "The last document is not printed yet; print it with POST /api/document/print first." },
  SFS_COMMUNICATION_ERROR: { code: 600, meaning: "The SFS could not be reached." },
  SFS_DUPLICATE: { code: 601, meaning: "The SFS reports the document as a duplicate." },
  SFS_RESPONSE_NOT_VERIFIED: { code: 602, meaning: "The SFS response signature could not be verified." },
  MALFORMED_INPUT: { code: 700, meaning: "The request body is not valid JSON." },
  INVALID_INPUT: { code: 701, meaning: "The request breaks a rule; the message names the field and the rule." },
} as const;
export type ResultName = keyof typeof RESULT_CODES;
export type ResultCode = (typeof RESULT_CODES)[ResultName]['code'];

/** Every operation of the API, keyed `METHOD /path`. */
export interface Operations {
  /** Product and API version */
  "GET /api/version": {
    request: undefined;
    response: VersionResponse;
  };
  /** Overall state and one entry per component */
  "GET /api/status/get": {
    request: undefined;
    response: StatusResponse;
  };
  /** The protected data storage (CHDÚ): model, serials, capacity, use, index state */
  "GET /api/chduinfo": {
    request: undefined;
    response: ChduInfoResponse;
  };
  /** Server-Sent Events: documents stored, registered, offline, rejected; state changes (extension) */
  "GET /api/events": {
    request: undefined;
    response: never;
  };
  /** Load the merchant identification and authentication data (renewal: same DIČ) */
  "POST /api/merchant/store": {
    request: StoreMerchantRequestInput;
    response: MerchantResponse;
  };
  /** The merchant stored in the CHDÚ */
  "POST /api/merchant/get": {
    request: GetMerchantRequestInput;
    response: MerchantResponse;
  };
  /** Merchant certificate status: OK, EXPIRES_SOON (last 30 days), EXPIRED */
  "GET /api/merchant/status": {
    request: undefined;
    response: CertificateStatusResponse;
  };
  /** Store, sign, register and print a PD, UF or ND */
  "POST /api/document/store": {
    request: StoreDocumentRequestInput;
    response: DocumentResponse;
  };
  /** Look a document up (or the last one); optionally print a copy */
  "POST /api/document/get": {
    request: GetDocumentRequestInput;
    response: DocumentResponse;
  };
  /** Print the original of the last document whose print failed */
  "POST /api/document/print": {
    request: {
      [key: string]: unknown;
    };
    response: GenericResponse;
  };
  /** Cash deposit (VK, positive amount) or withdrawal (VY, negative amount) */
  "POST /api/cash": {
    request: CashRequestInput;
    response: CashResponse;
  };
}

/** The same operations at run time. */
export const OPERATIONS = {
  "GET /api/version": { method: "GET", path: "/api/version", idempotent: false, stream: false, extension: false },
  "GET /api/status/get": { method: "GET", path: "/api/status/get", idempotent: false, stream: false, extension: false },
  "GET /api/chduinfo": { method: "GET", path: "/api/chduinfo", idempotent: false, stream: false, extension: false },
  "GET /api/events": { method: "GET", path: "/api/events", idempotent: false, stream: true, extension: true },
  "POST /api/merchant/store": { method: "POST", path: "/api/merchant/store", idempotent: false, stream: false, extension: false },
  "POST /api/merchant/get": { method: "POST", path: "/api/merchant/get", idempotent: false, stream: false, extension: false },
  "GET /api/merchant/status": { method: "GET", path: "/api/merchant/status", idempotent: false, stream: false, extension: false },
  "POST /api/document/store": { method: "POST", path: "/api/document/store", idempotent: true, stream: false, extension: false },
  "POST /api/document/get": { method: "POST", path: "/api/document/get", idempotent: false, stream: false, extension: false },
  "POST /api/document/print": { method: "POST", path: "/api/document/print", idempotent: false, stream: false, extension: false },
  "POST /api/cash": { method: "POST", path: "/api/cash", idempotent: true, stream: false, extension: false },
} as const;

/** Event types of `GET /api/events`. */
export type KasaEventType = "document.stored" | "document.registered" | "document.offline" | "document.rejected" | "backlog.changed" | "backlog.deadline" | "printer.changed" | "sfs.unreachable" | "sfs.reachable" | "certificate.expiring" | "chdu.capacity" | "register.state" | "backup.changed" | "events.lost";
