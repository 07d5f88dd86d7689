import { bytesToBase64 } from '../../base64.js';
import { type ReceiptFormOf, receiptFormOf } from '../../documents/receipt-form.js';
import { receiptVatTables } from '../../documents/receipt-vat-tables.js';
import { FiscalError } from '../../fiscal-error.js';
import type { MerchantRecord, PrintRecord, ReceiptForm } from '../../journal/records.js';
import type { Journal } from '../../ports/journal.js';
import type { IndexedDocument, JournalIndex } from '../../ports/journal-index.js';
import type { PartialPrintInfo, PrintOptions, ReceiptPrinter } from '../../ports/receipt-printer.js';
import { PRINTER_FAULTS, type PrinterFault } from '../../ports/receipt-printer.js';
import type { ReceiptImageRenderer } from '../../ports/receipt-renderer.js';
import type { ReceiptLayout } from '../../receipt/receipt-blocks.js';
import { layoutReceipt } from '../../receipt/receipt-layout.js';
import { receiptViewFromRecord } from '../../receipt/receipt-view-from-record.js';
import { resultName } from '../../result-codes.js';
import { offlineQrText } from '../../sfs/offline-qr.js';
import { LOGO_REF } from '../printing/logo-source.js';

/** The merchant record a document was issued under (its own, also after a renewal). */
export async function merchantOf(
  deps: { index: JournalIndex; journal: Journal },
  doc: IndexedDocument,
): Promise<{ recordNo: number; merchant: MerchantRecord }> {
  const recordNo = doc.document.merchantRecordNo;
  const current = deps.index.currentMerchant();
  if (current?.recordNo === recordNo) return current;
  const record = await deps.journal.get(recordNo);
  if (record?.type !== 'merchant') {
    throw new FiscalError(
      'CHDU_WRITE_ERROR',
      `The merchant record ${recordNo} of document ${doc.document.documentNumber} cannot be read from the CHDÚ.`,
    );
  }
  return { recordNo, merchant: record.body };
}

/**
 * The receipt of a stored document laid out for the printer width, in the form of its original
 * (`receiptFormOf`, ADR 0713): with the UID and its QR (SFS spec §2.10), or the offline heading,
 * PKP and the offline QR (§2.9). An original printed offline keeps that form on its copies after
 * it was sent; one printed once it had a UID — also a repaired document registered by the repair
 * — carries the UID on its copies. A VK/VY the law does not let us send (Act 384/2025) is not an
 * offline document: no offline heading (ADR 0515).
 */
export function documentLayout(
  doc: IndexedDocument,
  merchant: MerchantRecord,
  charsPerLine: number,
  options: { copy?: boolean; logo?: boolean } = {},
): ReceiptLayout {
  return layoutInForm(doc, receiptFormOf(doc), merchant, charsPerLine, options);
}

function layoutInForm(
  doc: IndexedDocument,
  face: ReceiptFormOf,
  merchant: MerchantRecord,
  charsPerLine: number,
  options: { copy?: boolean; logo?: boolean },
): ReceiptLayout {
  const record = doc.document;
  const uid = face.form === 'uid' ? face.uid : undefined;
  const notSent = face.form === 'not-sent';
  const { vatRows, exemptRows } = receiptVatTables(record.sfs);
  const view = receiptViewFromRecord({
    record,
    merchant,
    ...(uid === undefined ? {} : { uid }),
    offline: face.form === 'offline',
    ...(notSent ? { notSent: true } : {}),
    qrText: uid ?? offlineQrText({ okp: record.okp, data: record.sfs }),
    vatRows,
    exemptRows,
    ...(options.copy ? { copy: true } : {}),
    ...(options.logo ? { logoRef: LOGO_REF } : {}),
  });
  return layoutReceipt(view, charsPerLine);
}

/** The images a receipt needs (the logo), and whether there is a logo to head it with. */
export function receiptImages(deps: { logo?: { images(): ReadonlyMap<string, Uint8Array> } }): {
  images: ReadonlyMap<string, Uint8Array>;
  logo: boolean;
} {
  const images = deps.logo?.images() ?? new Map<string, Uint8Array>();
  return { images, logo: images.has(LOGO_REF) };
}

/** A document's receipt laid out for the printer, with the images it needs and its form. */
export interface PreparedReceipt {
  layout: ReceiptLayout;
  images: ReadonlyMap<string, Uint8Array>;
  /** The form it is laid out in: its print record says so (ADR 0713). */
  form: ReceiptForm;
}

/** Lays out a document's original for the printer (what `printOriginal` prints). */
export function prepareReceipt(
  deps: { printer: ReceiptPrinter; logo?: { images(): ReadonlyMap<string, Uint8Array> } },
  doc: IndexedDocument,
  merchant: MerchantRecord,
): PreparedReceipt {
  const { images, logo } = receiptImages(deps);
  const face = receiptFormOf(doc);
  return {
    images,
    layout: layoutInForm(doc, face, merchant, deps.printer.charsPerLine, { logo }),
    form: face.form,
  };
}

/** The electronic receipt of a document: the whole receipt as a Base64 PNG (same as paper). */
export function electronicReceipt(
  deps: {
    renderer: ReceiptImageRenderer;
    printer: ReceiptPrinter;
    logo?: { images(): ReadonlyMap<string, Uint8Array> };
  },
  doc: IndexedDocument,
  merchant: MerchantRecord,
): string {
  const { images, layout } = prepareReceipt(deps, doc, merchant);
  return bytesToBase64(deps.renderer.renderPng(layout, images));
}

/** A FiscalError carrying a printer code (100–106) and `printResultCode`. */
export function printerError(
  printerCode: number,
  message: string,
  details: Record<string, unknown> = {},
): FiscalError {
  const name = resultName(printerCode);
  const fault: PrinterFault =
    name !== undefined && (PRINTER_FAULTS as readonly string[]).includes(name)
      ? (name as PrinterFault)
      : 'PRINTER_NOT_READY';
  return new FiscalError(fault, message, { printResultCode: printerCode, ...details });
}

/** The printer code (100–106) of a print failure; anything unexpected counts as 100. */
export function printerCodeOf(error: unknown): number {
  if (FiscalError.is(error) && (PRINTER_FAULTS as readonly string[]).includes(error.resultName)) {
    return error.resultCode;
  }
  return 100;
}

/**
 * A failed print: its printer code, where to resume when part of it reached the paper, and
 * whether its drawer kick went out (ADR 0517: then no later print of it kicks).
 */
export interface PrintFailure {
  printerCode: number;
  partialPrint?: PartialPrintInfo;
  drawerOpened?: true;
}

export function printFailureOf(error: unknown): PrintFailure {
  const details = FiscalError.is(error) ? error.details : undefined;
  const partial = details?.partialPrint as PartialPrintInfo | undefined;
  return {
    printerCode: printerCodeOf(error),
    ...(partial === undefined ? {} : { partialPrint: partial }),
    ...(details?.drawerOpened === true ? { drawerOpened: true as const } : {}),
  };
}

/**
 * The `print` record of an attempt to print a document's original (and what the index folds), with
 * the form it was laid out in: the first attempt that reaches the customer fixes the form of every
 * later copy (ADR 0713).
 */
export function originalPrintRecord(
  documentNo: number,
  failure: PrintFailure | undefined,
  form: ReceiptForm,
): PrintRecord {
  return {
    documentNo,
    copy: false,
    ok: failure === undefined,
    ...(failure === undefined ? {} : { printerCode: failure.printerCode }),
    ...(failure?.partialPrint === undefined ? {} : { partialPrint: failure.partialPrint }),
    ...(failure?.drawerOpened ? { drawerOpened: true as const } : {}),
    form,
  };
}

/**
 * Prints the original of a document and records the outcome in the journal (printed, or failed
 * with the printer code and what reached the paper). Resolves with the failure, undefined on
 * success. A failure that cannot even be recorded (the CHDÚ went away with the printer behind it)
 * leaves the document unprinted all the same: the index still has no print for it (508).
 */
export async function printOriginal(
  deps: {
    journal: Journal;
    index: JournalIndex;
    printer: ReceiptPrinter;
    logo?: { images(): ReadonlyMap<string, Uint8Array> };
  },
  doc: IndexedDocument,
  merchant: MerchantRecord,
  openDrawer: boolean,
  options?: PrintOptions,
  drawerOpened = false,
  prepared: PreparedReceipt = prepareReceipt(deps, doc, merchant),
): Promise<PrintFailure | undefined> {
  const { images, layout } = prepared;
  let failure: PrintFailure | undefined;
  try {
    await deps.printer.print(
      {
        kind: 'receipt',
        layout,
        openDrawer,
        ...(drawerOpened ? { drawerOpened: true } : {}),
        reference: doc.document.documentNumber,
        images,
      },
      options,
    );
  } catch (e) {
    failure = printFailureOf(e);
  }
  const record = deps.journal.append({
    type: 'print',
    body: originalPrintRecord(doc.document.documentNo, failure, prepared.form),
  });
  if (failure === undefined) await record;
  else await record.catch(() => undefined);
  return failure;
}
