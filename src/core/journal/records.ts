import type { SfsWarning } from '../ports/tax-authority.js';
import type { SfsLocationRequest, SfsReceiptData } from '../sfs/message.js';

/**
 * The typed, versioned records of the fiscal journal. Each is written once into the CHDÚ (framed
 * across blocks by the journal) and never changed; later facts about a document (SFS outcome,
 * print result, repair) are new records that point back to it by `documentNo`.
 *
 * Bodies are plain JSON. Secrets (keystore passwords, private keys) never appear in any record.
 * A new field is added optionally within a version; a changed meaning bumps the version.
 */
export type RecordType =
  | 'merchant'
  | 'document'
  | 'sfs-exchange'
  | 'location'
  | 'print'
  | 'free-text'
  | 'logo'
  | 'settings'
  | 'repair'
  | 'print-job'
  | 'sfs-attempt';

/** Merchant identity and certificate (never a password or key). */
export interface MerchantRecord {
  dic: string;
  ico?: string;
  icDph?: string;
  corporateFullName: string;
  physicalAddress: ApiPhysicalAddress;
  organizationUnit: {
    name?: string;
    cashRegisterCode: string;
    cashRegisterType: 'STANDARD' | 'PORTABLE';
    physicalAddress?: ApiPhysicalAddress;
  };
  /** The identification data XML exactly as loaded. */
  identificationXml: string;
  /** Merchant certificate, DER in Base64. */
  certificate: string;
  /** SHA-256 of the certificate DER, hex; names the key in `<data-dir>/secrets/`. */
  certificateSha256: string;
  /** Certificate validity, SFS dateTime (`2026-11-15T11:03:57+01:00`). */
  notBefore: string;
  notAfter: string;
  /** Certificate subject, one line in certificate order (`CN=…, OU=…, organizationIdentifier=…, C=SK`). */
  certificateSubject?: string;
  certificateIssuer?: string;
  /** Certificate serial number, upper-case hex. */
  certificateSerialNumber?: string;
  /** True for a merchant created by demo mode: every receipt is marked as a demo. */
  demo: boolean;
}

export interface ApiPhysicalAddress {
  country?: string;
  municipality: string;
  street: string;
  buildingNumber?: string;
  propertyRegistrationNumber?: string;
  postalCode?: string;
}

/**
 * A fiscal document (PD, UF, ND, VK, VY), written before the first send attempt, with every
 * attribute of the SFS message (`sfs`, exact strings as signed) plus what the API returns.
 */
export interface DocumentRecord {
  /** Running number of all fiscal documents of this CHDÚ (API `internalDocumentId`), from 1. */
  documentNo: number;
  /** Journal record number of the merchant record in force. */
  merchantRecordNo: number;
  sfs: SfsReceiptData;
  pkp: string;
  okp: string;
  /** `yyyyMM/<sequenceId>` */
  documentNumber: string;
  /** Amount of cash rounding in cents (amount − item sum), printed but not sent. */
  roundingCents: number;
  payments: Array<{ name: string; amountCents: number }>;
  externalId?: string;
  header?: string;
  footer?: string;
  /** The POS asked for an electronic receipt. */
  electronicRequested: boolean;
  openDrawer: boolean;
  /** Item data the SFS message does not carry (API item type names, unit prices, external ids). */
  apiItems?: Array<{
    itemType: string;
    vatRate: string;
    unitPrice: string;
    externalId?: string;
    /** On a SALE: the voucher that pays it (SFS sends VoucherNumber only on VP items, -131). */
    voucherNumber?: string;
  }>;
  /**
   * Set when the register must not send this document to the SFS (VK/VY created on or after
   * 1 January 2026, Act 384/2025, unless sending is forced: ADR 0704); the reason is kept for the
   * record.
   */
  notSent?: { reason: string };
  idempotency?: { key: string; requestSha256: string };
  demo: boolean;
  /** The request's `exception` flag (merchant holds an exemption; SFS Header `Exception`). */
  exception?: boolean;
  /**
   * QR payments (NOP) that paid this document, each PAID with exactly this amount when stored
   * (ADR 0907). Printed under the QR tender; never sent to the SFS.
   */
  qrPayments?: Array<{ id: string; amountCents: number }>;
}

/** One send attempt to the SFS for a document or a location, and its outcome. */
export interface SfsExchangeRecord {
  subject: { kind: 'document'; documentNo: number } | { kind: 'location'; locationNo: number };
  requestUuid: string;
  requestDate: string;
  sendingCount: number;
  outcome: 'accepted' | 'rejected' | 'duplicate' | 'unreachable' | 'invalid-response' | 'unverified';
  /** Receipt UID on acceptance (receipts only: the SFS gives a location no Id). */
  id?: string;
  /** The SFS response's own Header@Uuid on acceptance (the location's proof of registration). */
  responseUuid?: string;
  processDate?: string;
  warning?: SfsWarning;
  errorCode?: number;
  errorText?: string;
  /**
   * Set by the background sender on a rejection that concerns the whole register — its
   * certificate, identity or interface version (-8, -10, -12, -13, -101, -102), not this message:
   * the item stays queued instead of stuck, and the sender holds until the cause is cleared
   * (ADR 0711).
   */
  registerRefused?: true;
}

/**
 * The start of a later send attempt (a resend or a repair), written — briefly, under the write
 * lock — before the request leaves for the SFS (ADR 0705). If the register stops before the
 * outcome is recorded, this SendingCount still counts as used: the next attempt takes a higher one,
 * so no SendingCount is ever sent twice. The outcome follows as an `sfs-exchange` record with the
 * same Uuid.
 */
export interface SfsAttemptRecord {
  subject: { kind: 'document'; documentNo: number } | { kind: 'location'; locationNo: number };
  requestUuid: string;
  requestDate: string;
  sendingCount: number;
}

/** A location of a PORTABLE register (spec §3.5), written before it is sent. */
export interface LocationRecord {
  locationNo: number;
  merchantRecordNo: number;
  sfs: SfsLocationRequest['data'];
  /** `physicalAddress.country` as the POS sent it (not part of the SFS message). */
  country?: string;
}

/**
 * The form of a receipt: with the UID the SFS registered the document under and its QR (SFS spec
 * §2.10), without it — the offline heading, PKP and the offline QR (§2.9) — or a VK/VY the law does
 * not let the register send: PKP, no offline heading, no QR (Act 384/2025, ADR 0515).
 */
export type ReceiptForm = 'uid' | 'offline' | 'not-sent';

/** A print event of a document: the original or a copy, printed or failed. */
export interface PrintRecord {
  documentNo: number;
  copy: boolean;
  ok: boolean;
  /** Printer result code 100–106 on failure. */
  printerCode?: number;
  /** The original was delivered as an electronic receipt instead of paper. */
  electronic?: boolean;
  /** A print cut short: what reached the paper and where a resumed print starts (docs/printing.md). */
  partialPrint?: {
    totalBytes: number;
    resumeOffset: number;
    printedLines: number;
    lastPrintedLine?: string;
    jobSha256: string;
  };
  /**
   * The drawer kick of this attempt went out to the printer (ADR 0517) — also when the attempt
   * left nothing confirmed and so no `partialPrint`: a later print of the original never kicks.
   */
  drawerOpened?: true;
  /**
   * The form this attempt laid the original out in (ADR 0713). The first attempt that reached the
   * customer — printed, electronic, or cut short with `partialPrint` — fixes the form of the
   * original, and every later copy shows the same. Records older than ADR 0713 have none.
   */
  form?: ReceiptForm;
}

/**
 * Printer data sent through the CHDÚ (`--printer chdu`, ADR 0508): the ESC/POS bytes follow the
 * record in WRITE_PRINT_OFFSET blocks, so the CHDÚ keeps exactly what the printer got. A job
 * longer than one record's print payload, or paced in windows, is several of these records.
 */
export interface PrintJobRecord {
  /** What is printed: `receipt`, `copy`, `text`, `report`, `drawer`… */
  kind: string;
  /** The document number or other reference, when there is one. */
  reference?: string;
  /** Where this part starts in the whole job, and the job's size, in bytes. */
  offset: number;
  totalBytes: number;
  /** SHA-256 (hex) of the whole job's bytes. */
  jobSha256: string;
}

export interface FreeTextRecord {
  text: string;
}

export interface LogoRecord {
  /** PNG, Base64; absent when the logo is removed. */
  png?: string;
}

export interface SettingsRecord {
  /** The keys changed and their new values. */
  changes: Record<string, unknown>;
}

/**
 * A stuck document or location repaired (`POST /api/document/update`, `fixLocation`) — numbering
 * unchanged (ADR 0008 §5). The original record stays; this one carries the repaired version, which
 * every later send uses.
 */
export interface RepairRecord {
  subject: { kind: 'document'; documentNo: number } | { kind: 'location'; locationNo: number };
  reason: string;
  /** For a document: the repaired SFS data and validation codes. */
  sfs?: SfsReceiptData;
  pkp?: string;
  okp?: string;
  /** Cash rounding of the repaired amount (cents), when the items changed. */
  roundingCents?: number;
  /** For a location: the repaired location data. */
  location?: SfsLocationRequest['data'];
  /** The merchant record signed with, when the repair moved to the merchant in force. */
  merchantRecordNo?: number;
  /** The fix as asked, field by field (for the record). */
  fix?: Record<string, unknown>;
  /**
   * Set aside for the tax office (`POST /api/offline/set-aside`, ADR 0711): an item the SFS
   * rejected and no fix can clear. It is never sent again, never counts as registered, blocks no
   * sale, and stays listed in the report and status. Nothing else of the item changes.
   */
  setAside?: { reason: string; errorCode: number; errorText: string };
}

export interface RecordBodies {
  merchant: MerchantRecord;
  document: DocumentRecord;
  'sfs-exchange': SfsExchangeRecord;
  location: LocationRecord;
  print: PrintRecord;
  'free-text': FreeTextRecord;
  logo: LogoRecord;
  settings: SettingsRecord;
  repair: RepairRecord;
  'print-job': PrintJobRecord;
  'sfs-attempt': SfsAttemptRecord;
}

/** Current version of each record type. */
export const RECORD_VERSIONS: { readonly [T in RecordType]: number } = {
  merchant: 1,
  document: 1,
  'sfs-exchange': 1,
  location: 1,
  print: 1,
  'free-text': 1,
  logo: 1,
  settings: 1,
  repair: 1,
  'print-job': 1,
  'sfs-attempt': 1,
};

/** A record as read back from the journal. */
export type JournalRecord = {
  [T in RecordType]: {
    type: T;
    version: number;
    /** Record number, from 1, gapless. */
    recordNo: number;
    /** Address of the first block. */
    address: number;
    /** When the record was written (SFS dateTime, Europe/Bratislava). */
    writtenAt: string;
    /**
     * SHA-256 chain hash after this record, hex (ADR 0101). Always set on records a journal
     * returns; optional only so hand-built records in tests need not invent one.
     */
    chainHash?: string;
    body: RecordBodies[T];
  };
}[RecordType];

/** A record to append. */
export type NewRecord = { [T in RecordType]: { type: T; body: RecordBodies[T] } }[RecordType];
