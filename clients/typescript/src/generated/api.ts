// Generated from kasa's GET /api/openapi.json by clients/typescript/codegen/generate.ts.
// Do not edit: run `npm run generate` in clients/typescript against the current kasa instead.
/* eslint-disable */

/** What a print cut short left on paper and where printing the same job again goes on (docs/printing.md). */
export type PartialPrintInfoInput = {
  /** Size of the whole job in printer data (ESC/POS bytes as sent). */
  totalBytes: number;
  /** The job byte a resumed print starts at (after ESC @ and the prelude): the end of the last unit the printer confirmed as printed. */
  resumeOffset: number;
  /** Lines, pictures and codes before resumeOffset: on the paper for certain. */
  printedLines: number;
  /** Lines after resumeOffset that reached the printer but whose printing it could not confirm: the resumed print prints them again, so they may appear twice. */
  unconfirmedLines?: number;
  /** The text of the last line before resumeOffset: look for it on the paper. */
  lastPrintedLine?: string;
  /** SHA-256 (hex) of the job bytes: only the very same job resumes, any other starts afresh. */
  jobSha256: string;
};

export type PrinterResponseInput = {
  /** virtual, none, tcp, serial, usb or chdu */
  adapter: string;
  /** the --printer target */
  target: string;
  model: string;
  /** characters per line at normal size: what receipts are laid out for */
  charsPerLine: number;
  /** the same as charsPerLine, for existing clients */
  numberOfCharInRow: number;
  /** printable width in dots at 203 dpi (384, 512, 576) */
  paperWidthDots: number;
  /** cp852, cp1250, or raster (text printed as images) */
  codepage: string;
  /** a cash drawer can be kicked through this printer */
  drawer: boolean;
  status: {
    /** a job sent now is expected to print */
    ready: boolean;
    connected: boolean;
    paper: "ok" | "near-end" | "out" | "unknown";
    coverOpen: boolean;
    /** the code a print would fail with now (100–106) */
    faultCode?: number;
    fault?: string;
    /** true while a job prints: the status is the one read last (before the job or after one of its lines) */
    busy?: boolean;
  };
  resultCode: 0;
};

export type PrintStringRequestInput = {
  /** The text as it is to be printed: \n breaks lines, the caller pads (see GET /api/printer for characters per line). Up to 8000 characters; no other control characters. */
  printData: string;
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
};

export type RawResponseInput = {
  resultCode: 0;
  /** the CHDÚ journal record holding the text */
  recordNo: number;
};

export type OpenDrawerRequestInput = {
  /** Drawer kick connector pin: 2 (default) or 5. */
  pin?: (2 | 5) | null;
};

export type LogoPreviewRequestInput = {
  /** The picture in Base64 (PNG, JPEG, GIF or WebP; a data: URL is accepted), at most 5 MB. */
  imageData: string;
  /** PRINT: as the printer prints it; ELECTRONIC: as the electronic receipt shows it. */
  format: "BOTH" | "PRINT" | "ELECTRONIC";
  /** Show each variant on a sample receipt. */
  fitOnReceipt?: boolean | null;
};

export type LogoPreviewResponseInput = {
  resultCode: 0;
  /** black dots only, dithered, trimmed, at most the paper width */
  print?: {
    /** PNG in Base64 */
    imageData: string;
    /** dots (pixels) */
    width: number;
    height: number;
  };
  /** the colour logo as the electronic receipt shows it */
  electronic?: {
    /** PNG in Base64 */
    imageData: string;
    /** dots (pixels) */
    width: number;
    height: number;
  };
};

export type ImageStoreRequestInput = {
  /** The logo in Base64; null removes it. */
  imageData: string | null;
};

export type ImageStoreResponseInput = {
  resultCode: 0;
  /** the CHDÚ journal record holding the logo */
  recordNo: number;
  width?: number;
  height?: number;
};

export type ErrorResponseInput = {
  /** Result code (see docs/errors.md); never 0. */
  resultCode: number;
  /** What went wrong, naming the field or the cause. */
  error: string;
  /** The same text, for clients written against other vendors. */
  errorMessage: string;
  /** A failed print: the printer code 100–106 (docs/printing.md). */
  printResultCode?: number;
  /** A print that failed part way (106, or 100/105 mid-job): what is on paper and where printing again goes on. */
  partialPrint?: PartialPrintInfoInput;
  /** POST /api/print: the CHDÚ record that holds the text even though printing failed. */
  recordNo?: number;
  /** 701 and other input errors: the member at fault, as a path (`documentEntries[2].price`). */
  field?: string;
  /** 701 from the request schema: the problems found, unknown members first, at most 20 (ADR 0427). */
  issues?: Array<{
    field: string;
    rule: string;
  }>;
  /** 701: how many more problems were found than `issues` lists. */
  issuesNotListed?: number;
  /** 501, 502, 601, 602 for a document or location the SFS did not accept: the SFS code and text (also when POST /api/document/get looks up such a document). */
  ekasaError?: {
    errorType: "EKASA";
    errorCode: number;
    message: string;
    detail: string;
  };
  /** The document the failure is about (yyyyMM/sequenceId): one the SFS did not accept, one whose print failed, or the one a reused Idempotency-Key made (701). */
  documentNumber?: string;
  /** The same document's internalDocumentId. */
  internalDocumentId?: number;
  [key: string]: unknown;
};

export type GenericResponseInput = {
  resultCode: 0;
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
  /** the register's printer, as GET /api/printer reports it (printerReady above is the CHDÚ's own flag) */
  printer?: {
    adapter: string;
    target: string;
    ready: boolean;
    faultCode?: number;
  };
  index: {
    /** current: at the head; behind: replay pending; ahead: records the CHDÚ lacks (acknowledged records missing, 201 — or an index of another CHDÚ, rebuilt); mismatch: rebuilt at the next check; missing: no index */
    state: "current" | "behind" | "ahead" | "mismatch" | "missing";
    /** last journal record in the index */
    highWaterMark: number;
  };
};

/** Every setting of the register (docs/settings.md). Each applies at once, without a restart. */
export type SettingsInput = {
  /** Where receipts are printed: virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0, whose path must be a character device (paper and code page are the printer* keys below). */
  printerTarget: string;
  /** Printable width in dots at 203 dpi: 384 (58 mm paper), 512 (72 mm), 576 (80 mm). */
  printerPaperWidthDots: 384 | 512 | 576;
  /** Characters per line: 32 or 42 on 384 dots, 42 or 56 on 512, 48 or 64 on 576 (the smaller is font A, the larger font B). */
  printerCharsPerLine: 32 | 42 | 48 | 56 | 64;
  /** How text is sent: code page PC852 or Windows-1250, or raster (text printed as pictures). */
  printerCodepage: "cp852" | "cp1250" | "raster";
  /** The ESC t number selecting the code page on this model; null = the Epson number (18 / 45). */
  printerCodepageNumber: number | null;
  /** raster: kasa draws the QR code; native: the printer's own QR command. */
  printerQr: "raster" | "native";
  /** Printer model name shown by GET /api/printer; null = the adapter name. */
  printerModel: string | null;
  /** How a printed line counts as on paper (ADR 0507): received — the printer confirmed its arrival (a resumed print may repeat lines of the receive buffer); printed — Epson process IDs (GS ( H) confirm printing, a resumed print is exact. */
  printerConfirm: "received" | "printed";
  /** The printer's receive buffer in bytes (256-1048576): how far back a resumed print starts when only arrival is confirmed. */
  printerBufferBytes: number;
  /** Default pacing of long prints: bytes of printer data per window, 0 (one window) or 256-10000000; windows widen so the pauses of one print add up to at most 120 s. A request Printer object overrides it. */
  printWindowSize: number;
  /** Default pause between two print windows, milliseconds (0-10000). A request Printer object overrides it. */
  printDelay: number;
  /** Head paper and electronic receipts with the stored logo (POST /api/image/store). */
  logoEnabled: boolean;
  /** Header text for PD, UF and ND documents whose request has no header; null = none. */
  receiptHeader: string | null;
  /** Footer text for PD, UF and ND documents whose request has no footer; null = none. */
  receiptFooter: string | null;
  /** The SFS SOAP endpoint; null = the simulator embedded in kasa (demo and tests). */
  sfsUrl: string | null;
  /** PEM files (absolute paths; regular files of at most 1 MiB each) with the certificates, or their CA, trusted to sign SFS answers; needed with sfsUrl. */
  sfsTrust: Array<string>;
  /** The online limit in milliseconds: past it a document is issued offline and sent later. */
  sfsTimeoutMs: number;
  /** Offline sending: the first wait after a failed try, milliseconds; it doubles up to resendMaxIntervalMs. */
  resendIntervalMs: number;
  /** Offline sending: the longest wait between two tries, milliseconds (at least resendIntervalMs is used). */
  resendMaxIntervalMs: number;
  /** Offline sending: documents and locations one batch sends at most. */
  resendBatchLimit: number;
  /** Hours from the first attempt within which a stored message must reach the SFS (96 by law). */
  resendDeadlineHours: number;
  /** Send deposits (VK) and withdrawals (VY) created from 1 January 2026 although Act 384/2025 ended sending them (test environments only). Before that date they are always sent. */
  forceSendCashDocuments: boolean;
  /** Payment names (keys of payments) that mean cash: only they may carry the 5-cent rounding. Case and surrounding spaces do not matter; diacritics do. */
  cashPaymentNames: Array<string>;
  /** QR payments through NOP: off, int (the tax authority's integration environment) or prod. */
  nopEnvironment: "off" | "int" | "prod";
  /** The merchant's notification-enabled account (IBAN; spaces allowed); null = not set up. */
  nopIban: string | null;
  /** Creditor name in the QR code (at most 70 once folded); null = the merchant's name. */
  nopCreditorName: string | null;
  /** Message in the QR code for the payer (at most 140 once folded), e.g. shop and branch; null = none. */
  nopMessage: string | null;
  /** Payme link type: m (dynamic QR at the point of sale) or p. */
  nopPaymeType: "m" | "p";
  /** Seconds a new QR payment waits for the money before it expires. */
  nopExpirySeconds: number;
  /** The payments name receipts use for QR payments (e.g. {"QR platba": 12.50}). */
  nopTenderName: string;
  /** Language of the admin page (each browser can switch for itself). */
  adminLanguage: "sk" | "en";
  /** How often the admin page refreshes status and the document list, seconds. */
  adminRefreshSeconds: number;
};

export type SettingsResponseInput = {
  resultCode: 0;
  settings: SettingsInput;
  /** Keys fixed for this process by a flag or KASA_* variable: PUT may send them only with the value in force. */
  fixed: Array<string>;
  /** For each fixed key, the flag or variable that fixed it (kasa addition). */
  fixedBy: {
    [key: string]: string;
  };
};

export type StoreSettingsRequestInput = {
  /** Any subset of the keys of Settings. An unknown key or a bad value is 701 naming it; a fixed key only with its value in force. */
  settings: {
    /** Where receipts are printed: virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0, whose path must be a character device (paper and code page are the printer* keys below). */
    printerTarget?: string;
    /** Printable width in dots at 203 dpi: 384 (58 mm paper), 512 (72 mm), 576 (80 mm). */
    printerPaperWidthDots?: 384 | 512 | 576;
    /** Characters per line: 32 or 42 on 384 dots, 42 or 56 on 512, 48 or 64 on 576 (the smaller is font A, the larger font B). */
    printerCharsPerLine?: 32 | 42 | 48 | 56 | 64;
    /** How text is sent: code page PC852 or Windows-1250, or raster (text printed as pictures). */
    printerCodepage?: "cp852" | "cp1250" | "raster";
    /** The ESC t number selecting the code page on this model; null = the Epson number (18 / 45). */
    printerCodepageNumber?: number | null;
    /** raster: kasa draws the QR code; native: the printer's own QR command. */
    printerQr?: "raster" | "native";
    /** Printer model name shown by GET /api/printer; null = the adapter name. */
    printerModel?: string | null;
    /** How a printed line counts as on paper (ADR 0507): received — the printer confirmed its arrival (a resumed print may repeat lines of the receive buffer); printed — Epson process IDs (GS ( H) confirm printing, a resumed print is exact. */
    printerConfirm?: "received" | "printed";
    /** The printer's receive buffer in bytes (256-1048576): how far back a resumed print starts when only arrival is confirmed. */
    printerBufferBytes?: number;
    /** Default pacing of long prints: bytes of printer data per window, 0 (one window) or 256-10000000; windows widen so the pauses of one print add up to at most 120 s. A request Printer object overrides it. */
    printWindowSize?: number;
    /** Default pause between two print windows, milliseconds (0-10000). A request Printer object overrides it. */
    printDelay?: number;
    /** Head paper and electronic receipts with the stored logo (POST /api/image/store). */
    logoEnabled?: boolean;
    /** Header text for PD, UF and ND documents whose request has no header; null = none. */
    receiptHeader?: string | null;
    /** Footer text for PD, UF and ND documents whose request has no footer; null = none. */
    receiptFooter?: string | null;
    /** The SFS SOAP endpoint; null = the simulator embedded in kasa (demo and tests). */
    sfsUrl?: string | null;
    /** PEM files (absolute paths; regular files of at most 1 MiB each) with the certificates, or their CA, trusted to sign SFS answers; needed with sfsUrl. */
    sfsTrust?: Array<string>;
    /** The online limit in milliseconds: past it a document is issued offline and sent later. */
    sfsTimeoutMs?: number;
    /** Offline sending: the first wait after a failed try, milliseconds; it doubles up to resendMaxIntervalMs. */
    resendIntervalMs?: number;
    /** Offline sending: the longest wait between two tries, milliseconds (at least resendIntervalMs is used). */
    resendMaxIntervalMs?: number;
    /** Offline sending: documents and locations one batch sends at most. */
    resendBatchLimit?: number;
    /** Hours from the first attempt within which a stored message must reach the SFS (96 by law). */
    resendDeadlineHours?: number;
    /** Send deposits (VK) and withdrawals (VY) created from 1 January 2026 although Act 384/2025 ended sending them (test environments only). Before that date they are always sent. */
    forceSendCashDocuments?: boolean;
    /** Payment names (keys of payments) that mean cash: only they may carry the 5-cent rounding. Case and surrounding spaces do not matter; diacritics do. */
    cashPaymentNames?: Array<string>;
    /** QR payments through NOP: off, int (the tax authority's integration environment) or prod. */
    nopEnvironment?: "off" | "int" | "prod";
    /** The merchant's notification-enabled account (IBAN; spaces allowed); null = not set up. */
    nopIban?: string | null;
    /** Creditor name in the QR code (at most 70 once folded); null = the merchant's name. */
    nopCreditorName?: string | null;
    /** Message in the QR code for the payer (at most 140 once folded), e.g. shop and branch; null = none. */
    nopMessage?: string | null;
    /** Payme link type: m (dynamic QR at the point of sale) or p. */
    nopPaymeType?: "m" | "p";
    /** Seconds a new QR payment waits for the money before it expires. */
    nopExpirySeconds?: number;
    /** The payments name receipts use for QR payments (e.g. {"QR platba": 12.50}). */
    nopTenderName?: string;
    /** Language of the admin page (each browser can switch for itself). */
    adminLanguage?: "sk" | "en";
    /** How often the admin page refreshes status and the document list, seconds. */
    adminRefreshSeconds?: number;
  };
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  resultCode?: unknown;
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  fixed?: unknown;
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  fixedBy?: unknown;
};

export type StoreSettingsResponseInput = {
  resultCode: 0;
  settings: SettingsInput;
  /** Keys fixed for this process by a flag or KASA_* variable: PUT may send them only with the value in force. */
  fixed: Array<string>;
  /** For each fixed key, the flag or variable that fixed it (kasa addition). */
  fixedBy: {
    [key: string]: string;
  };
  /** The keys this request changed (empty: nothing was written). */
  changed: Array<string>;
};

export type VersionResponseInput = {
  resultCode: 0;
  product: string;
  /** kasa version (package.json) */
  version: string;
  apiVersion: "1.7";
  /** SwId sent to the SFS: the certified one (--sw-id), or derived from the software and CHDÚ names and versions; absent while the CHDÚ has not reported its version */
  swId?: string;
  /** Always present: configured (--sw-id, sent as given), derived (swIdDerivedFrom), pending (no swId yet) */
  swIdOrigin: "configured" | "derived" | "pending";
  /** For a derived SwId: the text whose SHA-1 it is (manufacturer|product|CHDÚ|version|CHDÚ version) */
  swIdDerivedFrom?: string;
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
    component: "CHDU" | "PRINTER" | "SFS" | "MERCHANT" | "OFFLINE_BACKLOG" | "LOCATION" | "BACKUP";
    state: "OK" | "WARNING" | "ERROR" | "NOT_CONFIGURED";
    /** result code of the cause, 0 when OK */
    reasonCode: number;
    reason: string;
    details?: {
      [key: string]: unknown;
    };
  }>;
  /** SwId sent to the SFS: the certified one (--sw-id), or derived from the software and CHDÚ names and versions; absent while the CHDÚ has not reported its version */
  swId?: string;
  /** Always present: configured (--sw-id, sent as given), derived (swIdDerivedFrom), pending (no swId yet) */
  swIdOrigin: "configured" | "derived" | "pending";
  /** For a derived SwId: the text whose SHA-1 it is (manufacturer|product|CHDÚ|version|CHDÚ version) */
  swIdDerivedFrom?: string;
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
  /** VAT_23, VAT_19, VAT_5, VAT_0 (or labels 23%, 19%, 5%, 0%). VAT_20/VAT_10 only on REFUND and UPDATE items of pre-2025 sales: refused when referenceDocumentId is a document of this register issued from 1 Jan 2025 (ADR 0430). PACKING and PACKING_REFUND use VAT_0. */
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
  /** Total the customer pays: the item sum, or — only when a payment is cash — the item sum with the cash part rounded to 5 cents (PD/ND, ADR 0420); the invoice payment (UF, ≠ 0). */
  amount: number;
  /** Items: required (≥ 1) for PD and ND, none for UF. */
  documentEntries?: Array<DocumentReceiptItemInput> | null;
  /** Payment name (free text) → amount ≥ 0. Required; their sum is not checked against amount. Names in the stored setting cashPaymentNames (default Hotovosť, Hotovost, Cash; any case) are cash: only they may carry a 5-cent rounding. */
  payments: {
    [key: string]: number;
  };
  /** The POS's document id, 1–50 characters; searchable. */
  externalId?: string | null;
  /** Invoice number, 1–50 ASCII: required for UF, forbidden otherwise. */
  invoiceId?: string | null;
  /** Paragón number, with paragonDate; not for ND. */
  paragonNumber?: number | null;
  /** When the paper paragón was issued: dd.MM.yyyy HH:mm:ss or ISO 8601; not in the future. */
  paragonDate?: string | null;
  /** Printed at the top, up to 500 characters. */
  header?: string | null;
  /** Printed at the bottom, up to 500 characters. */
  footer?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** Electronic receipt instead of paper (online only). */
  electronicReceipt?: boolean | null;
  openDrawer?: boolean | null;
  /** The merchant holds an exemption from sending data. */
  exception?: boolean | null;
  customer?: CustomerInput | null;
  /** Extension: QR payments that pay this PD/UF, each PAID with exactly this amount and never used before; the QR tender in payments (nopTenderName, default "QR platba") must be their sum. Not sent to the SFS. */
  qrPayments?: Array<{
    id: string;
    amount: number;
  }> | null;
};

export type CashRequestInput = {
  /** Positive: deposit (VK); negative: withdrawal (VY); not 0; 2 decimals. */
  amount: number;
  /** The POS's id, 1–50 characters. */
  externalId?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  exception?: boolean | null;
  openDrawer?: boolean | null;
  /** Accepted and ignored (another vendor's member): Papaya POS CashRequest: a footer text. kasa prints no free text on cash documents. */
  footer?: unknown;
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
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** Accepted and ignored (another vendor's member): Papaya POS GetDocumentRequest: list the unsent documents instead. Only `false` (or null) is accepted and ignored; `true` is refused (701), since kasa would answer one document instead of the list: the unsent documents are listed by POST /api/document/get/offline (or POST /api/report/offline). */
  offlineDocuments?: false | null;
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
  /** The UID when the original receipt carries it (printed once registered), else the offline QR text. */
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
  /** 507 after a print that failed part way: what is on paper and where POST /api/document/print goes on. */
  partialPrint?: PartialPrintInfoInput;
  /** 507: what happened and what to do. */
  error?: string;
  /** 507: the same text, for clients of other vendors. */
  errorMessage?: string;
};

/** resultCode 0, or 507 (HTTP 200) when a retry with the same Idempotency-Key finds the cash document stored but its original not printed: print it with POST /api/document/print. */
export type CashResponseInput = {
  resultCode: number;
  cash: CashInput;
  /** 507 on a same-key retry: the printer code 100–106 when printing was tried and failed. */
  printResultCode?: number;
  /** 507: what happened and what to do. */
  error?: string;
  /** 507: the same text, for clients of other vendors. */
  errorMessage?: string;
};

export type DocumentListItemInput = {
  internalDocumentId: number;
  documentNumber: string;
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  /** negative for a withdrawal (VY) or a refund */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  externalId?: string;
  okp: string;
  uuid?: string;
  /** unsent: offline, waits to be sent; online / offline-sent: registered; stuck: rejected, waits for repair; not-sent: not sent by law (VK/VY); set-aside: rejected and set aside for the tax office (POST /api/offline/set-aside), never sent again */
  sendState: "unsent" | "online" | "offline-sent" | "stuck" | "not-sent" | "set-aside";
  printState: "pending" | "printed" | "failed" | "electronic";
  sendingCount: number;
};

export type DocumentListResponseInput = {
  resultCode: 0;
  documents: Array<DocumentListItemInput>;
  /** present when more documents follow: pass it as cursor */
  nextCursor?: number;
};

export type DocumentViewResponseInput = {
  resultCode: 0;
  document: ResponseDocumentInput;
  sfs: {
    /** unsent: offline, waits to be sent; online / offline-sent: registered; stuck: rejected, waits for repair; not-sent: not sent by law (VK/VY); set-aside: rejected and set aside for the tax office (POST /api/offline/set-aside), never sent again */
    state: "unsent" | "online" | "offline-sent" | "stuck" | "not-sent" | "set-aside";
    sendingCount: number;
    lastAttempt?: {
      requestDate: string;
      outcome: string;
      errorCode?: number;
      errorText?: string;
    };
    accepted?: {
      uuid?: string;
      processDate?: string;
    };
  };
  print: {
    state: "pending" | "printed" | "failed" | "electronic";
    lastPrinterCode?: number;
  };
  receipt: {
    /** the receipt as a PNG, Base64 */
    imageData: string;
    /** the same receipt as text lines */
    text: string;
    charsPerLine: number;
  };
};

export type DailySummaryInput = {
  /** documents stored in the period, by type */
  counts: {
    PD: number;
    UF: number;
    ND: number;
    VK: number;
    VY: number;
    total: number;
  };
  /** documents the SFS rejected that wait for repair (stuck): counted above, in no sum */
  notValid: number;
  /** documents the SFS rejected that were set aside for the tax office (POST /api/offline/set-aside): counted above, never valid, in no sum */
  setAside: number;
  /** per VAT rate: the sum of the PD documents' vatRateSums rows */
  vatRates: Array<{
    title: string;
    /** EUR */
    base: number;
    /** EUR */
    vat: number;
    /** EUR */
    sum: number;
  }>;
  vatTotal: {
    /** EUR */
    base: number;
    /** EUR */
    vat: number;
    /** EUR */
    sum: number;
  };
  /** PD and UF amounts (cash rounding included) */
  turnover: number;
  /** PD documents with an amount ≥ 0 */
  sales: {
    count: number;
    /** EUR */
    total: number;
  };
  /** PD documents with a negative amount */
  refunds: {
    count: number;
    /** EUR */
    total: number;
  };
  /** UF documents */
  invoicePayments: {
    count: number;
    /** EUR */
    total: number;
  };
  /** cash rounding included in the amounts */
  rounding: number;
  /** per payment name as sent; money paid back counts negative */
  payments: Array<{
    name: string;
    /** received under this name, as the documents carry it (change included) */
    total: number;
    /** change given back out of it: what a document's payments exceed its amount by, taken from its cash payments first */
    change: number;
    /** total − change: the nets of the period add up to the turnover */
    net: number;
    cash: boolean;
  }>;
  /** VK */
  deposits: {
    count: number;
    /** EUR */
    total: number;
  };
  /** VY, as positive amounts */
  withdrawals: {
    count: number;
    /** EUR */
    total: number;
  };
  /** deposits − withdrawals + the cash part of each PD and UF (change excluded) */
  cashInDrawer: number;
};

export type SummaryResponseInput = {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummaryInput;
  /** QR payments through NOP (capability 15), present when the register has them */
  qr?: {
    /** the payments name receipts use for QR payments (setting nopTenderName) */
    tenderName: string;
    /** what the receipts of the period were paid under that name */
    tender: number;
    /** QR payments of the period used on receipts */
    used: number;
    /** paid, not used on a receipt (yet) */
    paidNotUsed: number;
    /** paid after they expired: refund or review */
    late: number;
    /** paid with another amount: refund or review */
    mismatch: number;
    /** QR payments of the period by state */
    count: {
      [key: string]: number;
    };
  };
};

export type SummaryPrintRequestInput = {
  /** a day YYYY-MM-DD, Europe/Bratislava */
  from?: string;
  /** a day YYYY-MM-DD, Europe/Bratislava */
  to?: string;
  /** pacing of the print (windowSize, printDelay) */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  };
};

export type SummaryPrintResponseInput = {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummaryInput;
  /** QR payments through NOP (capability 15), present when the register has them */
  qr?: {
    /** the payments name receipts use for QR payments (setting nopTenderName) */
    tenderName: string;
    /** what the receipts of the period were paid under that name */
    tender: number;
    /** QR payments of the period used on receipts */
    used: number;
    /** paid, not used on a receipt (yet) */
    paidNotUsed: number;
    /** paid after they expired: refund or review */
    late: number;
    /** paid with another amount: refund or review */
    mismatch: number;
    /** QR payments of the period by state */
    count: {
      [key: string]: number;
    };
  };
  /** the CHDÚ record of the printed text */
  recordNo: number;
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
  /** Accepted and ignored (another vendor's member): Papaya POS StoreMerchantRequest: the integrator’s name, for the vendor’s records. */
  integrator?: unknown;
  /** Accepted and ignored (another vendor's member): Papaya POS StoreMerchantRequest: the dealer’s name, for the vendor’s records. */
  dealer?: unknown;
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

export type GpsInput = {
  /** Longitude, WGS-84 decimal degrees (−180 to 180), e.g. 17.112415. */
  x?: number | null;
  /** Latitude, WGS-84 decimal degrees (−90 to 90), e.g. 48.1467828. */
  y?: number | null;
};

export type LocationAddressInput = {
  /** Kept with the location, not sent to the SFS. */
  country?: string | null;
  /** 1–100 characters; required. */
  municipality?: string | null;
  /** 1–100 characters; required (the municipality name where there are no streets). */
  street?: string | null;
  /** Orientation number, 1–20 characters. */
  buildingNumber?: string | null;
  /** Registry number (súpisné číslo), a whole number 1–9999999999. */
  propertyRegistrationNumber?: string | number | null;
  /** 5 digits. */
  postalCode?: string | null;
};

/** Only the members given change; `{}` sends the rejected location again as it is. */
export type FixLocationInput = {
  /** New creation time: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601; not in the future, not before the previous location, not before the certificate became valid. */
  createDate?: string | null;
  physicalAddress?: LocationAddressInput | null;
  gps?: GpsInput | null;
  /** 1–255 characters, e.g. a vehicle plate; only when neither GPS nor an address is possible. */
  other?: string | null;
  /** Sign and send it as the merchant in force. */
  useLastMerchant?: boolean | null;
};

/** Exactly one of physicalAddress, gps, other — or fixLocation alone (with locationInternalId naming the location, recommended), which repairs the last location the SFS rejected. PORTABLE registers only (701 otherwise). */
export type UpdateLocationRequestInput = {
  physicalAddress?: LocationAddressInput | null;
  gps?: GpsInput | null;
  /** 1–255 characters, e.g. a vehicle plate; only when neither GPS nor an address is possible. */
  other?: string | null;
  fixLocation?: FixLocationInput | null;
  /** Extension (ADR 0717), recommended with fixLocation and only with it: the location the fix is for (its internalId, as the 501/502 answer, the offline report and offline/set-aside name it); it must be the stuck location stored last, the one a fix without it repairs. Makes a repeated repair safe: once that location is repaired, the answer is that location as it stands (0), nothing sent again — never a fix of another stuck location. Without it the last rejected location is repaired, as the API text says. */
  locationInternalId?: number | null;
};

export type LocationInput = {
  /** Running number of the locations of this CHDÚ. */
  internalId: number;
  kind: "gps" | "physicalAddress" | "other";
  gps?: {
    x: number;
    y: number;
  };
  physicalAddress?: PhysicalAddressInput;
  other?: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** When the SFS registered it; absent until then. */
  processDate?: string;
  /** The SFS response Uuid of the registration (a location gets no receipt Id); absent until registered. */
  uuid?: string;
  cashRegisterCode: string;
  merchant: MerchantInput;
  /** Send attempts so far. */
  sendingCount: number;
  status: EkasaStatusInput;
};

export type LocationResponseInput = {
  resultCode: number;
  location: LocationInput;
};

/** Every member optional, any combination. */
export type OfflineDocumentsFilterInput = {
  /** Only the document(s) with this sequenceId. */
  sequenceId?: number | null;
  /** CreateDate on or after: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601. */
  from?: string | null;
  /** CreateDate on or before, same format. */
  to?: string | null;
};

export type GetOfflineDocumentsRequestInput = {
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** At most this many items (1–1000; 1000 when absent). */
  limit?: number | null;
  /** Skip exactly this many items (documents come first); resumes a print that stopped. */
  offset?: number | null;
  offlineDocumentsFilter?: OfflineDocumentsFilterInput | null;
};

export type OfflineDocumentInput = {
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
  /** The UID when the original receipt carries it (printed once registered), else the offline QR text. */
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
  /** OFFLINE warning while waiting; the SFS code and text when rejected (stuck). */
  status: EkasaStatusInput;
};

/** Empty lists: nothing waits to be sent. At most `limit` items (1000 by default); `totalItems` and `moreItems` say whether the list was cut. */
export type OfflineReportResponseInput = {
  resultCode: number;
  documents: Array<OfflineDocumentInput>;
  locations: Array<LocationInput>;
  /** How many items match the filter in all, whatever offset and limit (kasa, ADR 0716): more than are listed when the report was cut. */
  totalItems: number;
  /** true: items match past this page; ask again with offset = offset + the items listed. The queue drains meanwhile: keep offlineDocumentsFilter.to at the first page's time and start again at offset 0 when totalItems changed (kasa, ADR 0716). */
  moreItems: boolean;
};

/** The oldest document or location not registered; empty lists when nothing waits. */
export type OldestOfflineResponseInput = {
  resultCode: number;
  documents: Array<OfflineDocumentInput>;
  locations: Array<LocationInput>;
};

export type SendOfflineRequestInput = {
  /** Send at most this many items now (1–1000). */
  limit?: number | null;
};

/** What this call registered; empty lists when nothing waited or the SFS could not be reached. */
export type SendOfflineResponseInput = {
  resultCode: number;
  documents: Array<OfflineDocumentInput>;
  locations: Array<LocationInput>;
};

export type GetOfflineDocumentsLegacyRequestInput = {
  limit?: number | null;
  offset?: number | null;
  offlineDocumentsFilter?: OfflineDocumentsFilterInput | null;
  /** Filter members may also be given at the top level. */
  sequenceId?: number | null;
  from?: string | null;
  to?: string | null;
};

export type FixDocumentInput = {
  /** Sign and send it as the merchant in force (new PKP). */
  useLastMerchant?: boolean | null;
  /** New creation time, same month, not in the future, not before the document issued before it: dd.MM.yyyy HH:mm:ss or ISO 8601 with an offset, which names the later instant of the repeated autumn hour (new PKP). */
  createDate?: string | null;
  /** New issue time of a paragón (not later than createDate). */
  issueDate?: string | null;
  /** New invoice number of a UF, 1–50 ASCII. */
  invoiceId?: string | null;
  documentEntries?: Array<{
    /** New name, 1–255 characters. */
    name?: string | null;
    /** New quantity (0–10000000, 4 decimals); the line total and the amount are recomputed. */
    quantity?: number | null;
    /** A new special regulation of the item (only at VAT_0), or `{"newValue": null}` to remove it. */
    specialRegulationChange?: {
      /** PDP, OOD, CK, PT, UD, ZPS, or null to remove it. */
      newValue?: string | null;
    } | null;
  } | null> | null;
};

export type UpdateDocumentRequestInput = {
  /** Extension (ADR 0715), recommended: the document the fix is for (its internalDocumentId, as the 501/502 answer and the offline report name it); it must be the oldest stuck document. Makes a repeated request safe: once that document is repaired, the answer is that document as it stands (0; 507 while its original is not printed), nothing sent or printed again — never a fix of the next stuck document. Without it the oldest stuck document is repaired, as the API text says. */
  internalDocumentId?: number | null;
  /** Required: the fix of the oldest stuck document; `{}` sends it again as it is. A document already handed over (printed) takes only `{}` (ADR 0712). */
  fixDocument?: FixDocumentInput | null;
};

/** Exactly one of internalDocumentId and locationInternalId, and a reason. */
export type SetAsideRequestInput = {
  /** The document to set aside (its internalDocumentId). */
  internalDocumentId?: number | null;
  /** Or the location to set aside (its internalId). */
  locationInternalId?: number | null;
  /** Required: why (1–255 characters); kept in the CHDÚ with the item for the tax office. */
  reason?: string | null;
};

/** The item, now set aside: its status names the SFS rejection and that it needs the tax office. */
export type SetAsideResponseInput = {
  resultCode: number;
  document?: OfflineDocumentInput;
  location?: LocationInput;
};

export type CreateQrPaymentRequestInput = {
  /** EUR, 0.01–999999.99, at most 2 decimals. */
  amount: number;
  /** The POS's own reference (≤ 50), e.g. the order. */
  externalId?: string | null;
  /** Message in the QR for the payer (≤ 140 after folding to ASCII); default the nopMessage setting. */
  message?: string | null;
  /** Seconds to wait for the money (30–1800); default the nopExpirySeconds setting (300). */
  expiresIn?: number | null;
};

export type QrPaymentInput = {
  /** NOP payment id: QR- and 32 hex digits (the EndToEndId, Payme PI). */
  qrPaymentId: string;
  /** PENDING, PAID, MISMATCH, CANCELLED, EXPIRED, LATE_PAID or USED. */
  state: "PENDING" | "PAID" | "MISMATCH" | "CANCELLED" | "EXPIRED" | "LATE_PAID" | "USED";
  amount: number;
  currency: "EUR";
  /** The Payme link the QR carries. */
  payme: string;
  externalId?: string;
  /** Where the id comes from: int, prod, sim or custom. */
  environment: string;
  createdAt: string;
  nopCreatedAt: string;
  expiresAt: string;
  updatedAt: string;
  /** What the first payment notification said, as checked. */
  received?: {
    amount: number;
    currency: string;
    hashOk: boolean;
    mismatch?: "hash" | "underpaid" | "overpaid" | "currency";
    bankTime?: string;
    notifiedAt: string;
    via: "mqtt" | "rest";
  };
  conflictingNotifications?: number;
  /** The receipt that used the id (state USED). */
  document?: {
    internalDocumentId: number;
    documentNumber: string;
    uuid?: string;
  };
  links: {
    qrPng: string;
    print: string;
    customerDisplay: string;
    events: string;
    cancel: string;
  };
};

export type QrPaymentResponseInput = {
  resultCode: 0;
  qrPayment: QrPaymentInput;
};

export type QrPaymentDayResponseInput = {
  resultCode: 0;
  date: string;
  qrPayments: Array<QrPaymentInput>;
  totals: {
    usedCents: number;
    paidNotUsedCents: number;
    lateCents: number;
    mismatchCents: number;
    count: {
      [key: string]: number;
    };
  };
  toReview: Array<QrPaymentInput>;
  notificationsToReview: Array<{
    paymentId: string;
    payload: string;
    via: "mqtt" | "rest";
    topic?: string;
    firstSeenAt: string;
    deliveries: number;
    outcome: "applied" | "repeat" | "unmatched" | "unreadable";
  }>;
};

export type NotifierStatusResponseInput = {
  resultCode: 0;
  notifier: {
    environment: string;
    target: string;
    connected: boolean;
    problem?: string;
    refused?: boolean;
    lastCatchUpAt?: string;
  };
};

/** What a print cut short left on paper and where printing the same job again goes on (docs/printing.md). */
export type PartialPrintInfo = {
  /** Size of the whole job in printer data (ESC/POS bytes as sent). */
  totalBytes: number;
  /** The job byte a resumed print starts at (after ESC @ and the prelude): the end of the last unit the printer confirmed as printed. */
  resumeOffset: number;
  /** Lines, pictures and codes before resumeOffset: on the paper for certain. */
  printedLines: number;
  /** Lines after resumeOffset that reached the printer but whose printing it could not confirm: the resumed print prints them again, so they may appear twice. */
  unconfirmedLines?: number;
  /** The text of the last line before resumeOffset: look for it on the paper. */
  lastPrintedLine?: string;
  /** SHA-256 (hex) of the job bytes: only the very same job resumes, any other starts afresh. */
  jobSha256: string;
};

export type PrinterResponse = {
  /** virtual, none, tcp, serial, usb or chdu */
  adapter: string;
  /** the --printer target */
  target: string;
  model: string;
  /** characters per line at normal size: what receipts are laid out for */
  charsPerLine: number;
  /** the same as charsPerLine, for existing clients */
  numberOfCharInRow: number;
  /** printable width in dots at 203 dpi (384, 512, 576) */
  paperWidthDots: number;
  /** cp852, cp1250, or raster (text printed as images) */
  codepage: string;
  /** a cash drawer can be kicked through this printer */
  drawer: boolean;
  status: {
    /** a job sent now is expected to print */
    ready: boolean;
    connected: boolean;
    paper: "ok" | "near-end" | "out" | "unknown";
    coverOpen: boolean;
    /** the code a print would fail with now (100–106) */
    faultCode?: number;
    fault?: string;
    /** true while a job prints: the status is the one read last (before the job or after one of its lines) */
    busy?: boolean;
  };
  resultCode: 0;
};

export type PrintStringRequest = {
  /** The text as it is to be printed: \n breaks lines, the caller pads (see GET /api/printer for characters per line). Up to 8000 characters; no other control characters. */
  printData: string;
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
};

export type RawResponse = {
  resultCode: 0;
  /** the CHDÚ journal record holding the text */
  recordNo: number;
};

export type OpenDrawerRequest = {
  /** Drawer kick connector pin: 2 (default) or 5. */
  pin?: (2 | 5) | null;
};

export type LogoPreviewRequest = {
  /** The picture in Base64 (PNG, JPEG, GIF or WebP; a data: URL is accepted), at most 5 MB. */
  imageData: string;
  /** PRINT: as the printer prints it; ELECTRONIC: as the electronic receipt shows it. */
  format: "BOTH" | "PRINT" | "ELECTRONIC";
  /** Show each variant on a sample receipt. */
  fitOnReceipt?: boolean | null;
};

export type LogoPreviewResponse = {
  resultCode: 0;
  /** black dots only, dithered, trimmed, at most the paper width */
  print?: {
    /** PNG in Base64 */
    imageData: string;
    /** dots (pixels) */
    width: number;
    height: number;
  };
  /** the colour logo as the electronic receipt shows it */
  electronic?: {
    /** PNG in Base64 */
    imageData: string;
    /** dots (pixels) */
    width: number;
    height: number;
  };
};

export type ImageStoreRequest = {
  /** The logo in Base64; null removes it. */
  imageData: string | null;
};

export type ImageStoreResponse = {
  resultCode: 0;
  /** the CHDÚ journal record holding the logo */
  recordNo: number;
  width?: number;
  height?: number;
};

export type ErrorResponse = {
  /** Result code (see docs/errors.md); never 0. */
  resultCode: number;
  /** What went wrong, naming the field or the cause. */
  error: string;
  /** The same text, for clients written against other vendors. */
  errorMessage: string;
  /** A failed print: the printer code 100–106 (docs/printing.md). */
  printResultCode?: number;
  /** A print that failed part way (106, or 100/105 mid-job): what is on paper and where printing again goes on. */
  partialPrint?: PartialPrintInfo;
  /** POST /api/print: the CHDÚ record that holds the text even though printing failed. */
  recordNo?: number;
  /** 701 and other input errors: the member at fault, as a path (`documentEntries[2].price`). */
  field?: string;
  /** 701 from the request schema: the problems found, unknown members first, at most 20 (ADR 0427). */
  issues?: Array<{
    field: string;
    rule: string;
  }>;
  /** 701: how many more problems were found than `issues` lists. */
  issuesNotListed?: number;
  /** 501, 502, 601, 602 for a document or location the SFS did not accept: the SFS code and text (also when POST /api/document/get looks up such a document). */
  ekasaError?: {
    errorType: "EKASA";
    errorCode: number;
    message: string;
    detail: string;
  };
  /** The document the failure is about (yyyyMM/sequenceId): one the SFS did not accept, one whose print failed, or the one a reused Idempotency-Key made (701). */
  documentNumber?: string;
  /** The same document's internalDocumentId. */
  internalDocumentId?: number;
  [key: string]: unknown;
};

export type GenericResponse = {
  resultCode: 0;
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
  /** the register's printer, as GET /api/printer reports it (printerReady above is the CHDÚ's own flag) */
  printer?: {
    adapter: string;
    target: string;
    ready: boolean;
    faultCode?: number;
  };
  index: {
    /** current: at the head; behind: replay pending; ahead: records the CHDÚ lacks (acknowledged records missing, 201 — or an index of another CHDÚ, rebuilt); mismatch: rebuilt at the next check; missing: no index */
    state: "current" | "behind" | "ahead" | "mismatch" | "missing";
    /** last journal record in the index */
    highWaterMark: number;
  };
};

/** Every setting of the register (docs/settings.md). Each applies at once, without a restart. */
export type Settings = {
  /** Where receipts are printed: virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0, whose path must be a character device (paper and code page are the printer* keys below). */
  printerTarget: string;
  /** Printable width in dots at 203 dpi: 384 (58 mm paper), 512 (72 mm), 576 (80 mm). */
  printerPaperWidthDots: 384 | 512 | 576;
  /** Characters per line: 32 or 42 on 384 dots, 42 or 56 on 512, 48 or 64 on 576 (the smaller is font A, the larger font B). */
  printerCharsPerLine: 32 | 42 | 48 | 56 | 64;
  /** How text is sent: code page PC852 or Windows-1250, or raster (text printed as pictures). */
  printerCodepage: "cp852" | "cp1250" | "raster";
  /** The ESC t number selecting the code page on this model; null = the Epson number (18 / 45). */
  printerCodepageNumber: number | null;
  /** raster: kasa draws the QR code; native: the printer's own QR command. */
  printerQr: "raster" | "native";
  /** Printer model name shown by GET /api/printer; null = the adapter name. */
  printerModel: string | null;
  /** How a printed line counts as on paper (ADR 0507): received — the printer confirmed its arrival (a resumed print may repeat lines of the receive buffer); printed — Epson process IDs (GS ( H) confirm printing, a resumed print is exact. */
  printerConfirm: "received" | "printed";
  /** The printer's receive buffer in bytes (256-1048576): how far back a resumed print starts when only arrival is confirmed. */
  printerBufferBytes: number;
  /** Default pacing of long prints: bytes of printer data per window, 0 (one window) or 256-10000000; windows widen so the pauses of one print add up to at most 120 s. A request Printer object overrides it. */
  printWindowSize: number;
  /** Default pause between two print windows, milliseconds (0-10000). A request Printer object overrides it. */
  printDelay: number;
  /** Head paper and electronic receipts with the stored logo (POST /api/image/store). */
  logoEnabled: boolean;
  /** Header text for PD, UF and ND documents whose request has no header; null = none. */
  receiptHeader: string | null;
  /** Footer text for PD, UF and ND documents whose request has no footer; null = none. */
  receiptFooter: string | null;
  /** The SFS SOAP endpoint; null = the simulator embedded in kasa (demo and tests). */
  sfsUrl: string | null;
  /** PEM files (absolute paths; regular files of at most 1 MiB each) with the certificates, or their CA, trusted to sign SFS answers; needed with sfsUrl. */
  sfsTrust: Array<string>;
  /** The online limit in milliseconds: past it a document is issued offline and sent later. */
  sfsTimeoutMs: number;
  /** Offline sending: the first wait after a failed try, milliseconds; it doubles up to resendMaxIntervalMs. */
  resendIntervalMs: number;
  /** Offline sending: the longest wait between two tries, milliseconds (at least resendIntervalMs is used). */
  resendMaxIntervalMs: number;
  /** Offline sending: documents and locations one batch sends at most. */
  resendBatchLimit: number;
  /** Hours from the first attempt within which a stored message must reach the SFS (96 by law). */
  resendDeadlineHours: number;
  /** Send deposits (VK) and withdrawals (VY) created from 1 January 2026 although Act 384/2025 ended sending them (test environments only). Before that date they are always sent. */
  forceSendCashDocuments: boolean;
  /** Payment names (keys of payments) that mean cash: only they may carry the 5-cent rounding. Case and surrounding spaces do not matter; diacritics do. */
  cashPaymentNames: Array<string>;
  /** QR payments through NOP: off, int (the tax authority's integration environment) or prod. */
  nopEnvironment: "off" | "int" | "prod";
  /** The merchant's notification-enabled account (IBAN; spaces allowed); null = not set up. */
  nopIban: string | null;
  /** Creditor name in the QR code (at most 70 once folded); null = the merchant's name. */
  nopCreditorName: string | null;
  /** Message in the QR code for the payer (at most 140 once folded), e.g. shop and branch; null = none. */
  nopMessage: string | null;
  /** Payme link type: m (dynamic QR at the point of sale) or p. */
  nopPaymeType: "m" | "p";
  /** Seconds a new QR payment waits for the money before it expires. */
  nopExpirySeconds: number;
  /** The payments name receipts use for QR payments (e.g. {"QR platba": 12.50}). */
  nopTenderName: string;
  /** Language of the admin page (each browser can switch for itself). */
  adminLanguage: "sk" | "en";
  /** How often the admin page refreshes status and the document list, seconds. */
  adminRefreshSeconds: number;
};

export type SettingsResponse = {
  resultCode: 0;
  settings: Settings;
  /** Keys fixed for this process by a flag or KASA_* variable: PUT may send them only with the value in force. */
  fixed: Array<string>;
  /** For each fixed key, the flag or variable that fixed it (kasa addition). */
  fixedBy: {
    [key: string]: string;
  };
};

export type StoreSettingsRequest = {
  /** Any subset of the keys of Settings. An unknown key or a bad value is 701 naming it; a fixed key only with its value in force. */
  settings: {
    /** Where receipts are printed: virtual, none, chdu, tcp://HOST:PORT, serial:///dev/X?baudRate=N or usb:///dev/usb/lp0, whose path must be a character device (paper and code page are the printer* keys below). */
    printerTarget?: string;
    /** Printable width in dots at 203 dpi: 384 (58 mm paper), 512 (72 mm), 576 (80 mm). */
    printerPaperWidthDots?: 384 | 512 | 576;
    /** Characters per line: 32 or 42 on 384 dots, 42 or 56 on 512, 48 or 64 on 576 (the smaller is font A, the larger font B). */
    printerCharsPerLine?: 32 | 42 | 48 | 56 | 64;
    /** How text is sent: code page PC852 or Windows-1250, or raster (text printed as pictures). */
    printerCodepage?: "cp852" | "cp1250" | "raster";
    /** The ESC t number selecting the code page on this model; null = the Epson number (18 / 45). */
    printerCodepageNumber?: number | null;
    /** raster: kasa draws the QR code; native: the printer's own QR command. */
    printerQr?: "raster" | "native";
    /** Printer model name shown by GET /api/printer; null = the adapter name. */
    printerModel?: string | null;
    /** How a printed line counts as on paper (ADR 0507): received — the printer confirmed its arrival (a resumed print may repeat lines of the receive buffer); printed — Epson process IDs (GS ( H) confirm printing, a resumed print is exact. */
    printerConfirm?: "received" | "printed";
    /** The printer's receive buffer in bytes (256-1048576): how far back a resumed print starts when only arrival is confirmed. */
    printerBufferBytes?: number;
    /** Default pacing of long prints: bytes of printer data per window, 0 (one window) or 256-10000000; windows widen so the pauses of one print add up to at most 120 s. A request Printer object overrides it. */
    printWindowSize?: number;
    /** Default pause between two print windows, milliseconds (0-10000). A request Printer object overrides it. */
    printDelay?: number;
    /** Head paper and electronic receipts with the stored logo (POST /api/image/store). */
    logoEnabled?: boolean;
    /** Header text for PD, UF and ND documents whose request has no header; null = none. */
    receiptHeader?: string | null;
    /** Footer text for PD, UF and ND documents whose request has no footer; null = none. */
    receiptFooter?: string | null;
    /** The SFS SOAP endpoint; null = the simulator embedded in kasa (demo and tests). */
    sfsUrl?: string | null;
    /** PEM files (absolute paths; regular files of at most 1 MiB each) with the certificates, or their CA, trusted to sign SFS answers; needed with sfsUrl. */
    sfsTrust?: Array<string>;
    /** The online limit in milliseconds: past it a document is issued offline and sent later. */
    sfsTimeoutMs?: number;
    /** Offline sending: the first wait after a failed try, milliseconds; it doubles up to resendMaxIntervalMs. */
    resendIntervalMs?: number;
    /** Offline sending: the longest wait between two tries, milliseconds (at least resendIntervalMs is used). */
    resendMaxIntervalMs?: number;
    /** Offline sending: documents and locations one batch sends at most. */
    resendBatchLimit?: number;
    /** Hours from the first attempt within which a stored message must reach the SFS (96 by law). */
    resendDeadlineHours?: number;
    /** Send deposits (VK) and withdrawals (VY) created from 1 January 2026 although Act 384/2025 ended sending them (test environments only). Before that date they are always sent. */
    forceSendCashDocuments?: boolean;
    /** Payment names (keys of payments) that mean cash: only they may carry the 5-cent rounding. Case and surrounding spaces do not matter; diacritics do. */
    cashPaymentNames?: Array<string>;
    /** QR payments through NOP: off, int (the tax authority's integration environment) or prod. */
    nopEnvironment?: "off" | "int" | "prod";
    /** The merchant's notification-enabled account (IBAN; spaces allowed); null = not set up. */
    nopIban?: string | null;
    /** Creditor name in the QR code (at most 70 once folded); null = the merchant's name. */
    nopCreditorName?: string | null;
    /** Message in the QR code for the payer (at most 140 once folded), e.g. shop and branch; null = none. */
    nopMessage?: string | null;
    /** Payme link type: m (dynamic QR at the point of sale) or p. */
    nopPaymeType?: "m" | "p";
    /** Seconds a new QR payment waits for the money before it expires. */
    nopExpirySeconds?: number;
    /** The payments name receipts use for QR payments (e.g. {"QR platba": 12.50}). */
    nopTenderName?: string;
    /** Language of the admin page (each browser can switch for itself). */
    adminLanguage?: "sk" | "en";
    /** How often the admin page refreshes status and the document list, seconds. */
    adminRefreshSeconds?: number;
  };
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  resultCode?: unknown;
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  fixed?: unknown;
  /** Read-only (from GET /api/settings/get): accepted and ignored. */
  fixedBy?: unknown;
};

export type StoreSettingsResponse = {
  resultCode: 0;
  settings: Settings;
  /** Keys fixed for this process by a flag or KASA_* variable: PUT may send them only with the value in force. */
  fixed: Array<string>;
  /** For each fixed key, the flag or variable that fixed it (kasa addition). */
  fixedBy: {
    [key: string]: string;
  };
  /** The keys this request changed (empty: nothing was written). */
  changed: Array<string>;
};

export type VersionResponse = {
  resultCode: 0;
  product: string;
  /** kasa version (package.json) */
  version: string;
  apiVersion: "1.7";
  /** SwId sent to the SFS: the certified one (--sw-id), or derived from the software and CHDÚ names and versions; absent while the CHDÚ has not reported its version */
  swId?: string;
  /** Always present: configured (--sw-id, sent as given), derived (swIdDerivedFrom), pending (no swId yet) */
  swIdOrigin: "configured" | "derived" | "pending";
  /** For a derived SwId: the text whose SHA-1 it is (manufacturer|product|CHDÚ|version|CHDÚ version) */
  swIdDerivedFrom?: string;
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
    component: "CHDU" | "PRINTER" | "SFS" | "MERCHANT" | "OFFLINE_BACKLOG" | "LOCATION" | "BACKUP";
    state: "OK" | "WARNING" | "ERROR" | "NOT_CONFIGURED";
    /** result code of the cause, 0 when OK */
    reasonCode: number;
    reason: string;
    details?: {
      [key: string]: unknown;
    };
  }>;
  /** SwId sent to the SFS: the certified one (--sw-id), or derived from the software and CHDÚ names and versions; absent while the CHDÚ has not reported its version */
  swId?: string;
  /** Always present: configured (--sw-id, sent as given), derived (swIdDerivedFrom), pending (no swId yet) */
  swIdOrigin: "configured" | "derived" | "pending";
  /** For a derived SwId: the text whose SHA-1 it is (manufacturer|product|CHDÚ|version|CHDÚ version) */
  swIdDerivedFrom?: string;
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
  /** VAT_23, VAT_19, VAT_5, VAT_0 (or labels 23%, 19%, 5%, 0%). VAT_20/VAT_10 only on REFUND and UPDATE items of pre-2025 sales: refused when referenceDocumentId is a document of this register issued from 1 Jan 2025 (ADR 0430). PACKING and PACKING_REFUND use VAT_0. */
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
  /** Total the customer pays: the item sum, or — only when a payment is cash — the item sum with the cash part rounded to 5 cents (PD/ND, ADR 0420); the invoice payment (UF, ≠ 0). */
  amount: number;
  /** Items: required (≥ 1) for PD and ND, none for UF. */
  documentEntries?: Array<DocumentReceiptItem> | null;
  /** Payment name (free text) → amount ≥ 0. Required; their sum is not checked against amount. Names in the stored setting cashPaymentNames (default Hotovosť, Hotovost, Cash; any case) are cash: only they may carry a 5-cent rounding. */
  payments: {
    [key: string]: number;
  };
  /** The POS's document id, 1–50 characters; searchable. */
  externalId?: string | null;
  /** Invoice number, 1–50 ASCII: required for UF, forbidden otherwise. */
  invoiceId?: string | null;
  /** Paragón number, with paragonDate; not for ND. */
  paragonNumber?: number | null;
  /** When the paper paragón was issued: dd.MM.yyyy HH:mm:ss or ISO 8601; not in the future. */
  paragonDate?: string | null;
  /** Printed at the top, up to 500 characters. */
  header?: string | null;
  /** Printed at the bottom, up to 500 characters. */
  footer?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** Electronic receipt instead of paper (online only). */
  electronicReceipt?: boolean | null;
  openDrawer?: boolean | null;
  /** The merchant holds an exemption from sending data. */
  exception?: boolean | null;
  customer?: Customer | null;
  /** Extension: QR payments that pay this PD/UF, each PAID with exactly this amount and never used before; the QR tender in payments (nopTenderName, default "QR platba") must be their sum. Not sent to the SFS. */
  qrPayments?: Array<{
    id: string;
    amount: number;
  }> | null;
};

export type CashRequest = {
  /** Positive: deposit (VK); negative: withdrawal (VY); not 0; 2 decimals. */
  amount: number;
  /** The POS's id, 1–50 characters. */
  externalId?: string | null;
  /** Printer options; null or {} means the default printer. */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  exception?: boolean | null;
  openDrawer?: boolean | null;
  /** Accepted and ignored (another vendor's member): Papaya POS CashRequest: a footer text. kasa prints no free text on cash documents. */
  footer?: unknown;
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
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** Accepted and ignored (another vendor's member): Papaya POS GetDocumentRequest: list the unsent documents instead. Only `false` (or null) is accepted and ignored; `true` is refused (701), since kasa would answer one document instead of the list: the unsent documents are listed by POST /api/document/get/offline (or POST /api/report/offline). */
  offlineDocuments?: false | null;
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
  /** The UID when the original receipt carries it (printed once registered), else the offline QR text. */
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
  /** 507 after a print that failed part way: what is on paper and where POST /api/document/print goes on. */
  partialPrint?: PartialPrintInfo;
  /** 507: what happened and what to do. */
  error?: string;
  /** 507: the same text, for clients of other vendors. */
  errorMessage?: string;
};

/** resultCode 0, or 507 (HTTP 200) when a retry with the same Idempotency-Key finds the cash document stored but its original not printed: print it with POST /api/document/print. */
export type CashResponse = {
  resultCode: number;
  cash: Cash;
  /** 507 on a same-key retry: the printer code 100–106 when printing was tried and failed. */
  printResultCode?: number;
  /** 507: what happened and what to do. */
  error?: string;
  /** 507: the same text, for clients of other vendors. */
  errorMessage?: string;
};

export type DocumentListItem = {
  internalDocumentId: number;
  documentNumber: string;
  type: "PD" | "UF" | "ND" | "VK" | "VY";
  /** negative for a withdrawal (VY) or a refund */
  amount: number;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  externalId?: string;
  okp: string;
  uuid?: string;
  /** unsent: offline, waits to be sent; online / offline-sent: registered; stuck: rejected, waits for repair; not-sent: not sent by law (VK/VY); set-aside: rejected and set aside for the tax office (POST /api/offline/set-aside), never sent again */
  sendState: "unsent" | "online" | "offline-sent" | "stuck" | "not-sent" | "set-aside";
  printState: "pending" | "printed" | "failed" | "electronic";
  sendingCount: number;
};

export type DocumentListResponse = {
  resultCode: 0;
  documents: Array<DocumentListItem>;
  /** present when more documents follow: pass it as cursor */
  nextCursor?: number;
};

export type DocumentViewResponse = {
  resultCode: 0;
  document: ResponseDocument;
  sfs: {
    /** unsent: offline, waits to be sent; online / offline-sent: registered; stuck: rejected, waits for repair; not-sent: not sent by law (VK/VY); set-aside: rejected and set aside for the tax office (POST /api/offline/set-aside), never sent again */
    state: "unsent" | "online" | "offline-sent" | "stuck" | "not-sent" | "set-aside";
    sendingCount: number;
    lastAttempt?: {
      requestDate: string;
      outcome: string;
      errorCode?: number;
      errorText?: string;
    };
    accepted?: {
      uuid?: string;
      processDate?: string;
    };
  };
  print: {
    state: "pending" | "printed" | "failed" | "electronic";
    lastPrinterCode?: number;
  };
  receipt: {
    /** the receipt as a PNG, Base64 */
    imageData: string;
    /** the same receipt as text lines */
    text: string;
    charsPerLine: number;
  };
};

export type DailySummary = {
  /** documents stored in the period, by type */
  counts: {
    PD: number;
    UF: number;
    ND: number;
    VK: number;
    VY: number;
    total: number;
  };
  /** documents the SFS rejected that wait for repair (stuck): counted above, in no sum */
  notValid: number;
  /** documents the SFS rejected that were set aside for the tax office (POST /api/offline/set-aside): counted above, never valid, in no sum */
  setAside: number;
  /** per VAT rate: the sum of the PD documents' vatRateSums rows */
  vatRates: Array<{
    title: string;
    /** EUR */
    base: number;
    /** EUR */
    vat: number;
    /** EUR */
    sum: number;
  }>;
  vatTotal: {
    /** EUR */
    base: number;
    /** EUR */
    vat: number;
    /** EUR */
    sum: number;
  };
  /** PD and UF amounts (cash rounding included) */
  turnover: number;
  /** PD documents with an amount ≥ 0 */
  sales: {
    count: number;
    /** EUR */
    total: number;
  };
  /** PD documents with a negative amount */
  refunds: {
    count: number;
    /** EUR */
    total: number;
  };
  /** UF documents */
  invoicePayments: {
    count: number;
    /** EUR */
    total: number;
  };
  /** cash rounding included in the amounts */
  rounding: number;
  /** per payment name as sent; money paid back counts negative */
  payments: Array<{
    name: string;
    /** received under this name, as the documents carry it (change included) */
    total: number;
    /** change given back out of it: what a document's payments exceed its amount by, taken from its cash payments first */
    change: number;
    /** total − change: the nets of the period add up to the turnover */
    net: number;
    cash: boolean;
  }>;
  /** VK */
  deposits: {
    count: number;
    /** EUR */
    total: number;
  };
  /** VY, as positive amounts */
  withdrawals: {
    count: number;
    /** EUR */
    total: number;
  };
  /** deposits − withdrawals + the cash part of each PD and UF (change excluded) */
  cashInDrawer: number;
};

export type SummaryResponse = {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummary;
  /** QR payments through NOP (capability 15), present when the register has them */
  qr?: {
    /** the payments name receipts use for QR payments (setting nopTenderName) */
    tenderName: string;
    /** what the receipts of the period were paid under that name */
    tender: number;
    /** QR payments of the period used on receipts */
    used: number;
    /** paid, not used on a receipt (yet) */
    paidNotUsed: number;
    /** paid after they expired: refund or review */
    late: number;
    /** paid with another amount: refund or review */
    mismatch: number;
    /** QR payments of the period by state */
    count: {
      [key: string]: number;
    };
  };
};

export type SummaryPrintRequest = {
  /** a day YYYY-MM-DD, Europe/Bratislava */
  from?: string;
  /** a day YYYY-MM-DD, Europe/Bratislava */
  to?: string;
  /** pacing of the print (windowSize, printDelay) */
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  };
};

export type SummaryPrintResponse = {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummary;
  /** QR payments through NOP (capability 15), present when the register has them */
  qr?: {
    /** the payments name receipts use for QR payments (setting nopTenderName) */
    tenderName: string;
    /** what the receipts of the period were paid under that name */
    tender: number;
    /** QR payments of the period used on receipts */
    used: number;
    /** paid, not used on a receipt (yet) */
    paidNotUsed: number;
    /** paid after they expired: refund or review */
    late: number;
    /** paid with another amount: refund or review */
    mismatch: number;
    /** QR payments of the period by state */
    count: {
      [key: string]: number;
    };
  };
  /** the CHDÚ record of the printed text */
  recordNo: number;
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
  /** Accepted and ignored (another vendor's member): Papaya POS StoreMerchantRequest: the integrator’s name, for the vendor’s records. */
  integrator?: unknown;
  /** Accepted and ignored (another vendor's member): Papaya POS StoreMerchantRequest: the dealer’s name, for the vendor’s records. */
  dealer?: unknown;
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

export type Gps = {
  /** Longitude, WGS-84 decimal degrees (−180 to 180), e.g. 17.112415. */
  x?: number | null;
  /** Latitude, WGS-84 decimal degrees (−90 to 90), e.g. 48.1467828. */
  y?: number | null;
};

export type LocationAddress = {
  /** Kept with the location, not sent to the SFS. */
  country?: string | null;
  /** 1–100 characters; required. */
  municipality?: string | null;
  /** 1–100 characters; required (the municipality name where there are no streets). */
  street?: string | null;
  /** Orientation number, 1–20 characters. */
  buildingNumber?: string | null;
  /** Registry number (súpisné číslo), a whole number 1–9999999999. */
  propertyRegistrationNumber?: string | number | null;
  /** 5 digits. */
  postalCode?: string | null;
};

/** Only the members given change; `{}` sends the rejected location again as it is. */
export type FixLocation = {
  /** New creation time: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601; not in the future, not before the previous location, not before the certificate became valid. */
  createDate?: string | null;
  physicalAddress?: LocationAddress | null;
  gps?: Gps | null;
  /** 1–255 characters, e.g. a vehicle plate; only when neither GPS nor an address is possible. */
  other?: string | null;
  /** Sign and send it as the merchant in force. */
  useLastMerchant?: boolean | null;
};

/** Exactly one of physicalAddress, gps, other — or fixLocation alone (with locationInternalId naming the location, recommended), which repairs the last location the SFS rejected. PORTABLE registers only (701 otherwise). */
export type UpdateLocationRequest = {
  physicalAddress?: LocationAddress | null;
  gps?: Gps | null;
  /** 1–255 characters, e.g. a vehicle plate; only when neither GPS nor an address is possible. */
  other?: string | null;
  fixLocation?: FixLocation | null;
  /** Extension (ADR 0717), recommended with fixLocation and only with it: the location the fix is for (its internalId, as the 501/502 answer, the offline report and offline/set-aside name it); it must be the stuck location stored last, the one a fix without it repairs. Makes a repeated repair safe: once that location is repaired, the answer is that location as it stands (0), nothing sent again — never a fix of another stuck location. Without it the last rejected location is repaired, as the API text says. */
  locationInternalId?: number | null;
};

export type Location = {
  /** Running number of the locations of this CHDÚ. */
  internalId: number;
  kind: "gps" | "physicalAddress" | "other";
  gps?: {
    x: number;
    y: number;
  };
  physicalAddress?: PhysicalAddress;
  other?: string;
  /** dd.MM.yyyy HH:mm:ss, Europe/Bratislava */
  createDate: string;
  /** When the SFS registered it; absent until then. */
  processDate?: string;
  /** The SFS response Uuid of the registration (a location gets no receipt Id); absent until registered. */
  uuid?: string;
  cashRegisterCode: string;
  merchant: Merchant;
  /** Send attempts so far. */
  sendingCount: number;
  status: EkasaStatus;
};

export type LocationResponse = {
  resultCode: number;
  location: Location;
};

/** Every member optional, any combination. */
export type OfflineDocumentsFilter = {
  /** Only the document(s) with this sequenceId. */
  sequenceId?: number | null;
  /** CreateDate on or after: dd.MM.yyyy HH:mm:ss (Bratislava) or ISO 8601. */
  from?: string | null;
  /** CreateDate on or before, same format. */
  to?: string | null;
};

export type GetOfflineDocumentsRequest = {
  printer?: {
    /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
    windowSize?: number | null;
    /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
    printDelay?: number | null;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
    socket?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
    numberOfCharInRow?: unknown;
    /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
    codingNumber?: unknown;
  } | null;
  /** At most this many items (1–1000; 1000 when absent). */
  limit?: number | null;
  /** Skip exactly this many items (documents come first); resumes a print that stopped. */
  offset?: number | null;
  offlineDocumentsFilter?: OfflineDocumentsFilter | null;
};

export type OfflineDocument = {
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
  /** The UID when the original receipt carries it (printed once registered), else the offline QR text. */
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
  /** OFFLINE warning while waiting; the SFS code and text when rejected (stuck). */
  status: EkasaStatus;
};

/** Empty lists: nothing waits to be sent. At most `limit` items (1000 by default); `totalItems` and `moreItems` say whether the list was cut. */
export type OfflineReportResponse = {
  resultCode: number;
  documents: Array<OfflineDocument>;
  locations: Array<Location>;
  /** How many items match the filter in all, whatever offset and limit (kasa, ADR 0716): more than are listed when the report was cut. */
  totalItems: number;
  /** true: items match past this page; ask again with offset = offset + the items listed. The queue drains meanwhile: keep offlineDocumentsFilter.to at the first page's time and start again at offset 0 when totalItems changed (kasa, ADR 0716). */
  moreItems: boolean;
};

/** The oldest document or location not registered; empty lists when nothing waits. */
export type OldestOfflineResponse = {
  resultCode: number;
  documents: Array<OfflineDocument>;
  locations: Array<Location>;
};

export type SendOfflineRequest = {
  /** Send at most this many items now (1–1000). */
  limit?: number | null;
};

/** What this call registered; empty lists when nothing waited or the SFS could not be reached. */
export type SendOfflineResponse = {
  resultCode: number;
  documents: Array<OfflineDocument>;
  locations: Array<Location>;
};

export type GetOfflineDocumentsLegacyRequest = {
  limit?: number | null;
  offset?: number | null;
  offlineDocumentsFilter?: OfflineDocumentsFilter | null;
  /** Filter members may also be given at the top level. */
  sequenceId?: number | null;
  from?: string | null;
  to?: string | null;
};

export type FixDocument = {
  /** Sign and send it as the merchant in force (new PKP). */
  useLastMerchant?: boolean | null;
  /** New creation time, same month, not in the future, not before the document issued before it: dd.MM.yyyy HH:mm:ss or ISO 8601 with an offset, which names the later instant of the repeated autumn hour (new PKP). */
  createDate?: string | null;
  /** New issue time of a paragón (not later than createDate). */
  issueDate?: string | null;
  /** New invoice number of a UF, 1–50 ASCII. */
  invoiceId?: string | null;
  documentEntries?: Array<{
    /** New name, 1–255 characters. */
    name?: string | null;
    /** New quantity (0–10000000, 4 decimals); the line total and the amount are recomputed. */
    quantity?: number | null;
    /** A new special regulation of the item (only at VAT_0), or `{"newValue": null}` to remove it. */
    specialRegulationChange?: {
      /** PDP, OOD, CK, PT, UD, ZPS, or null to remove it. */
      newValue?: string | null;
    } | null;
  } | null> | null;
};

export type UpdateDocumentRequest = {
  /** Extension (ADR 0715), recommended: the document the fix is for (its internalDocumentId, as the 501/502 answer and the offline report name it); it must be the oldest stuck document. Makes a repeated request safe: once that document is repaired, the answer is that document as it stands (0; 507 while its original is not printed), nothing sent or printed again — never a fix of the next stuck document. Without it the oldest stuck document is repaired, as the API text says. */
  internalDocumentId?: number | null;
  /** Required: the fix of the oldest stuck document; `{}` sends it again as it is. A document already handed over (printed) takes only `{}` (ADR 0712). */
  fixDocument?: FixDocument | null;
};

/** Exactly one of internalDocumentId and locationInternalId, and a reason. */
export type SetAsideRequest = {
  /** The document to set aside (its internalDocumentId). */
  internalDocumentId?: number | null;
  /** Or the location to set aside (its internalId). */
  locationInternalId?: number | null;
  /** Required: why (1–255 characters); kept in the CHDÚ with the item for the tax office. */
  reason?: string | null;
};

/** The item, now set aside: its status names the SFS rejection and that it needs the tax office. */
export type SetAsideResponse = {
  resultCode: number;
  document?: OfflineDocument;
  location?: Location;
};

export type CreateQrPaymentRequest = {
  /** EUR, 0.01–999999.99, at most 2 decimals. */
  amount: number;
  /** The POS's own reference (≤ 50), e.g. the order. */
  externalId?: string | null;
  /** Message in the QR for the payer (≤ 140 after folding to ASCII); default the nopMessage setting. */
  message?: string | null;
  /** Seconds to wait for the money (30–1800); default the nopExpirySeconds setting (300). */
  expiresIn?: number | null;
};

export type QrPayment = {
  /** NOP payment id: QR- and 32 hex digits (the EndToEndId, Payme PI). */
  qrPaymentId: string;
  /** PENDING, PAID, MISMATCH, CANCELLED, EXPIRED, LATE_PAID or USED. */
  state: "PENDING" | "PAID" | "MISMATCH" | "CANCELLED" | "EXPIRED" | "LATE_PAID" | "USED";
  amount: number;
  currency: "EUR";
  /** The Payme link the QR carries. */
  payme: string;
  externalId?: string;
  /** Where the id comes from: int, prod, sim or custom. */
  environment: string;
  createdAt: string;
  nopCreatedAt: string;
  expiresAt: string;
  updatedAt: string;
  /** What the first payment notification said, as checked. */
  received?: {
    amount: number;
    currency: string;
    hashOk: boolean;
    mismatch?: "hash" | "underpaid" | "overpaid" | "currency";
    bankTime?: string;
    notifiedAt: string;
    via: "mqtt" | "rest";
  };
  conflictingNotifications?: number;
  /** The receipt that used the id (state USED). */
  document?: {
    internalDocumentId: number;
    documentNumber: string;
    uuid?: string;
  };
  links: {
    qrPng: string;
    print: string;
    customerDisplay: string;
    events: string;
    cancel: string;
  };
};

export type QrPaymentResponse = {
  resultCode: 0;
  qrPayment: QrPayment;
};

export type QrPaymentDayResponse = {
  resultCode: 0;
  date: string;
  qrPayments: Array<QrPayment>;
  totals: {
    usedCents: number;
    paidNotUsedCents: number;
    lateCents: number;
    mismatchCents: number;
    count: {
      [key: string]: number;
    };
  };
  toReview: Array<QrPayment>;
  notificationsToReview: Array<{
    paymentId: string;
    payload: string;
    via: "mqtt" | "rest";
    topic?: string;
    firstSeenAt: string;
    deliveries: number;
    outcome: "applied" | "repeat" | "unmatched" | "unreadable";
  }>;
};

export type NotifierStatusResponse = {
  resultCode: 0;
  notifier: {
    environment: string;
    target: string;
    connected: boolean;
    problem?: string;
    refused?: boolean;
    lastCatchUpAt?: string;
  };
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
  QR_PAYMENTS_OFF: { code: 800, meaning: "QR payments are off or not set up: the NOP environment is off, or the IBAN or the creditor name is missing (kasa extension, ADR 0900)." },
  NOP_UNREACHABLE: { code: 801, meaning: "The payment notifier (NOP) could not be reached, timed out, failed or asked to slow down; no payment id was issued." },
  NOP_REFUSED: { code: 802, meaning: "NOP refused the register's certificate, or the certificate does not name the stored merchant and register." },
  QR_PAYMENT_NOT_FOUND: { code: 803, meaning: "No QR payment with this id is known to this register." },
  QR_PAYMENT_NOT_PAID: { code: 804, meaning: "The QR payment is not PAID (still pending, mismatched, cancelled, expired or paid late)." },
  QR_PAYMENT_USED: { code: 805, meaning: "The QR payment id is already used by another document." },
  QR_PAYMENT_ALREADY_PAID: { code: 806, meaning: "The QR payment is already paid: it cannot be cancelled; issue the receipt with it." },
} as const;
export type ResultName = keyof typeof RESULT_CODES;
export type ResultCode = (typeof RESULT_CODES)[ResultName]['code'];

/** Every operation of the API, keyed `METHOD /path`. */
export interface Operations {
  /** Product and API version */
  "GET /api/version": {
    request: undefined;
    response: VersionResponse;
    params: undefined;
  };
  /** Overall state and one entry per component */
  "GET /api/status/get": {
    request: undefined;
    response: StatusResponse;
    params: undefined;
  };
  /** The protected data storage (CHDÚ): model, serials, capacity, use, index state */
  "GET /api/chduinfo": {
    request: undefined;
    response: ChduInfoResponse;
    params: undefined;
  };
  /** Server-Sent Events: documents stored, registered, offline, rejected; state changes (extension) */
  "GET /api/events": {
    request: undefined;
    response: never;
    params: { "lastEventId"?: string; };
  };
  /** Load the merchant identification and authentication data (renewal: same DIČ) */
  "POST /api/merchant/store": {
    request: StoreMerchantRequestInput;
    response: MerchantResponse;
    params: undefined;
  };
  /** The merchant stored in the CHDÚ */
  "POST /api/merchant/get": {
    request: GetMerchantRequestInput;
    response: MerchantResponse;
    params: undefined;
  };
  /** Merchant certificate status: OK, EXPIRES_SOON (last 30 days), EXPIRED */
  "GET /api/merchant/status": {
    request: undefined;
    response: CertificateStatusResponse;
    params: undefined;
  };
  /** Store, sign, register and print a PD, UF or ND */
  "POST /api/document/store": {
    request: StoreDocumentRequestInput;
    response: DocumentResponse;
    params: undefined;
  };
  /** Look a document up (or the last one); optionally print a copy */
  "POST /api/document/get": {
    request: GetDocumentRequestInput;
    response: DocumentResponse;
    params: undefined;
  };
  /** Print the original of the last document whose print failed */
  "POST /api/document/print": {
    request: {
      /** Bytes of printer data (ESC/POS as sent) per window: 0 or absent for one window, else 256–10000000. Windows widen so that the pauses of one print add up to at most 120 s. */
      windowSize?: number | null;
      /** Milliseconds to wait between two windows (0–10000), so a thermal head cools down. */
      printDelay?: number | null;
      /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer address of this request. kasa prints on the printer configured with --printer. */
      socket?: unknown;
      /** Accepted and ignored (another vendor's member): Papaya POS Printer: characters per row. kasa lays receipts out for the configured printer. */
      numberOfCharInRow?: unknown;
      /** Accepted and ignored (another vendor's member): Papaya POS Printer: the printer's code page. kasa encodes for the configured printer. */
      codingNumber?: unknown;
    };
    response: GenericResponse;
    params: undefined;
  };
  /** Cash deposit (VK, positive amount) or withdrawal (VY, negative amount) */
  "POST /api/cash": {
    request: CashRequestInput;
    response: CashResponse;
    params: undefined;
  };
  /** Send stored offline documents and locations to the SFS now */
  "POST /api/document/send/offline": {
    request: SendOfflineRequestInput;
    response: SendOfflineResponse;
    params: undefined;
  };
  /** Report of documents and locations not registered with the SFS (optionally printed) */
  "POST /api/report/offline": {
    request: GetOfflineDocumentsRequestInput;
    response: OfflineReportResponse;
    params: undefined;
  };
  /** The oldest document or location not registered with the SFS */
  "GET /api/report/offline/oldest": {
    request: undefined;
    response: OldestOfflineResponse;
    params: undefined;
  };
  /** Deprecated: the unsent documents and locations (use POST /api/report/offline) */
  "POST /api/document/get/offline": {
    request: GetOfflineDocumentsLegacyRequestInput;
    response: OfflineReportResponse;
    params: undefined;
  };
  /** Repair the oldest document the SFS rejected (fixDocument) and send it again */
  "POST /api/document/update": {
    request: UpdateDocumentRequestInput;
    response: DocumentResponse;
    params: undefined;
  };
  /** Set a rejected document or location aside for the tax office (extension) */
  "POST /api/offline/set-aside": {
    request: SetAsideRequestInput;
    response: SetAsideResponse;
    params: undefined;
  };
  /** Set the location of a PORTABLE register, or repair the last rejected one (fixLocation) */
  "POST /api/location/update": {
    request: UpdateLocationRequestInput;
    response: LocationResponse;
    params: undefined;
  };
  /** The last location of the register */
  "GET /api/location/get": {
    request: undefined;
    response: LocationResponse;
    params: undefined;
  };
  /** The printer: adapter, model, characters per line, paper, code page, status, drawer */
  "GET /api/printer": {
    request: undefined;
    response: PrinterResponse;
    params: undefined;
  };
  /** Kick the cash drawer (ESC p) */
  "POST /api/drawer/open": {
    request: OpenDrawerRequestInput;
    response: GenericResponse;
    params: undefined;
  };
  /** Print free text (stored in the CHDÚ first, no document number) */
  "POST /api/print": {
    request: PrintStringRequestInput;
    response: RawResponse;
    params: undefined;
  };
  /** Preview a logo as printed and as on the electronic receipt */
  "POST /api/image/preview": {
    request: LogoPreviewRequestInput;
    response: LogoPreviewResponse;
    params: undefined;
  };
  /** Store the logo in the CHDÚ (null removes it) */
  "POST /api/image/store": {
    request: ImageStoreRequestInput;
    response: ImageStoreResponse;
    params: undefined;
  };
  /** Ask NOP for a payment id and show it as a QR (Payme link) */
  "POST /api/qrpayment/create": {
    request: CreateQrPaymentRequestInput;
    response: QrPaymentResponse;
    params: undefined;
  };
  /** A day's QR payments, their totals and what needs review */
  "GET /api/qrpayment": {
    request: undefined;
    response: QrPaymentDayResponse;
    params: { "date"?: string; "state"?: string; };
  };
  /** The NOP connection: environment, session, last problem */
  "GET /api/qrpayment/notifier": {
    request: undefined;
    response: NotifierStatusResponse;
    params: undefined;
  };
  /** A QR payment; with ?wait=N a long poll for its next state */
  "GET /api/qrpayment/{id}": {
    request: undefined;
    response: QrPaymentResponse;
    params: { "wait"?: string; "id": string; };
  };
  /** Stop waiting for a QR payment */
  "POST /api/qrpayment/{id}/cancel": {
    request: Record<string, never>;
    response: QrPaymentResponse;
    params: { "id": string; };
  };
  /** Print the QR on a non-fiscal slip */
  "POST /api/qrpayment/{id}/print": {
    request: Record<string, never>;
    response: QrPaymentResponse;
    params: { "id": string; };
  };
  /** The QR (Payme link) as PNG */
  "GET /api/qrpayment/{id}/qr.png": {
    request: undefined;
    response: unknown;
    params: { "scale"?: string; "id": string; };
  };
  /** Server-sent events: the state of a QR payment as it changes */
  "GET /api/qrpayment/{id}/events": {
    request: undefined;
    response: unknown;
    params: { "id": string; };
  };
  /** Every setting in force, and which are fixed by a flag */
  "GET /api/settings/get": {
    request: undefined;
    response: SettingsResponse;
    params: undefined;
  };
  /** Change any subset of the settings; they apply at once and are kept in the CHDÚ */
  "PUT /api/settings/store": {
    request: StoreSettingsRequestInput;
    response: StoreSettingsResponse;
    params: undefined;
  };
  /** The documents of the CHDÚ, latest first, a page at a time (extension) */
  "GET /api/documents": {
    request: undefined;
    response: DocumentListResponse;
    params: { "from"?: string; "to"?: string; "type"?: string; "state"?: string; "limit"?: string; "cursor"?: string; };
  };
  /** One document with its SFS and print state and its receipt image (extension) */
  "GET /api/documents/view": {
    request: undefined;
    response: DocumentViewResponse;
    params: { "id": string; };
  };
  /** Daily summary (closing) of a day or a period (extension) */
  "GET /api/report/summary": {
    request: undefined;
    response: SummaryResponse;
    params: { "from"?: string; "to"?: string; };
  };
  /** Print the daily summary on the receipt printer (extension) */
  "POST /api/report/summary/print": {
    request: SummaryPrintRequestInput;
    response: SummaryPrintResponse;
    params: undefined;
  };
}

/** The same operations at run time. */
export const OPERATIONS = {
  "GET /api/version": { method: "GET", path: "/api/version", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/status/get": { method: "GET", path: "/api/status/get", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/chduinfo": { method: "GET", path: "/api/chduinfo", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/events": { method: "GET", path: "/api/events", pathParams: [], queryParams: ["lastEventId"], idempotent: false, stream: true, extension: true },
  "POST /api/merchant/store": { method: "POST", path: "/api/merchant/store", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/merchant/get": { method: "POST", path: "/api/merchant/get", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/merchant/status": { method: "GET", path: "/api/merchant/status", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/document/store": { method: "POST", path: "/api/document/store", pathParams: [], queryParams: [], idempotent: true, stream: false, extension: false },
  "POST /api/document/get": { method: "POST", path: "/api/document/get", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/document/print": { method: "POST", path: "/api/document/print", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/cash": { method: "POST", path: "/api/cash", pathParams: [], queryParams: [], idempotent: true, stream: false, extension: false },
  "POST /api/document/send/offline": { method: "POST", path: "/api/document/send/offline", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/report/offline": { method: "POST", path: "/api/report/offline", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/report/offline/oldest": { method: "GET", path: "/api/report/offline/oldest", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/document/get/offline": { method: "POST", path: "/api/document/get/offline", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/document/update": { method: "POST", path: "/api/document/update", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/offline/set-aside": { method: "POST", path: "/api/offline/set-aside", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: true },
  "POST /api/location/update": { method: "POST", path: "/api/location/update", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/location/get": { method: "GET", path: "/api/location/get", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/printer": { method: "GET", path: "/api/printer", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/drawer/open": { method: "POST", path: "/api/drawer/open", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/print": { method: "POST", path: "/api/print", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/image/preview": { method: "POST", path: "/api/image/preview", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/image/store": { method: "POST", path: "/api/image/store", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "POST /api/qrpayment/create": { method: "POST", path: "/api/qrpayment/create", pathParams: [], queryParams: [], idempotent: true, stream: false, extension: true },
  "GET /api/qrpayment": { method: "GET", path: "/api/qrpayment", pathParams: [], queryParams: ["date","state"], idempotent: false, stream: false, extension: true },
  "GET /api/qrpayment/notifier": { method: "GET", path: "/api/qrpayment/notifier", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: true },
  "GET /api/qrpayment/{id}": { method: "GET", path: "/api/qrpayment/{id}", pathParams: ["id"], queryParams: ["wait"], idempotent: false, stream: false, extension: true },
  "POST /api/qrpayment/{id}/cancel": { method: "POST", path: "/api/qrpayment/{id}/cancel", pathParams: ["id"], queryParams: [], idempotent: false, stream: false, extension: true },
  "POST /api/qrpayment/{id}/print": { method: "POST", path: "/api/qrpayment/{id}/print", pathParams: ["id"], queryParams: [], idempotent: false, stream: false, extension: true },
  "GET /api/qrpayment/{id}/qr.png": { method: "GET", path: "/api/qrpayment/{id}/qr.png", pathParams: ["id"], queryParams: ["scale"], idempotent: false, stream: false, extension: true },
  "GET /api/qrpayment/{id}/events": { method: "GET", path: "/api/qrpayment/{id}/events", pathParams: ["id"], queryParams: [], idempotent: false, stream: false, extension: true },
  "GET /api/settings/get": { method: "GET", path: "/api/settings/get", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "PUT /api/settings/store": { method: "PUT", path: "/api/settings/store", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: false },
  "GET /api/documents": { method: "GET", path: "/api/documents", pathParams: [], queryParams: ["from","to","type","state","limit","cursor"], idempotent: false, stream: false, extension: true },
  "GET /api/documents/view": { method: "GET", path: "/api/documents/view", pathParams: [], queryParams: ["id"], idempotent: false, stream: false, extension: true },
  "GET /api/report/summary": { method: "GET", path: "/api/report/summary", pathParams: [], queryParams: ["from","to"], idempotent: false, stream: false, extension: true },
  "POST /api/report/summary/print": { method: "POST", path: "/api/report/summary/print", pathParams: [], queryParams: [], idempotent: false, stream: false, extension: true },
} as const;

/** Event types of `GET /api/events`. */
export type KasaEventType = "document.stored" | "document.registered" | "document.offline" | "document.rejected" | "document.set-aside" | "backlog.changed" | "backlog.deadline" | "printer.changed" | "sfs.unreachable" | "sfs.reachable" | "certificate.expiring" | "chdu.capacity" | "register.state" | "backup.changed" | "events.lost";
