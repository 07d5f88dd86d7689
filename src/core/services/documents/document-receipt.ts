import { bytesToBase64 } from '../../base64.js';
import { receiptVatTables } from '../../documents/receipt-vat-tables.js';
import { FiscalError } from '../../fiscal-error.js';
import type { MerchantRecord } from '../../journal/records.js';
import type { Journal } from '../../ports/journal.js';
import type { IndexedDocument, JournalIndex } from '../../ports/journal-index.js';
import type { ReceiptPrinter } from '../../ports/receipt-printer.js';
import { PRINTER_FAULTS, type PrinterFault } from '../../ports/receipt-printer.js';
import type { ReceiptImageRenderer } from '../../ports/receipt-renderer.js';
import type { ReceiptLayout } from '../../receipt/receipt-blocks.js';
import { layoutReceipt } from '../../receipt/receipt-layout.js';
import { receiptViewFromRecord } from '../../receipt/receipt-view-from-record.js';
import { resultName } from '../../result-codes.js';
import { offlineQrText } from '../../sfs/offline-qr.js';

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
 * The receipt of a stored document laid out for the printer width: online receipts carry the UID
 * and its QR, all others the offline heading, PKP and the offline QR (SFS spec §2.9–2.10). A
 * document sent later keeps the offline form it was handed over with.
 */
export function documentLayout(
  doc: IndexedDocument,
  merchant: MerchantRecord,
  charsPerLine: number,
  options: { copy?: boolean } = {},
): ReceiptLayout {
  const record = doc.document;
  const uid = doc.sendState === 'online' ? doc.accepted?.id : undefined;
  const { vatRows, exemptRows } = receiptVatTables(record.sfs);
  const view = receiptViewFromRecord({
    record,
    merchant,
    ...(uid === undefined ? {} : { uid }),
    offline: uid === undefined,
    qrText: uid ?? offlineQrText({ okp: record.okp, data: record.sfs }),
    vatRows,
    exemptRows,
    ...(options.copy ? { copy: true } : {}),
  });
  return layoutReceipt(view, charsPerLine);
}

/** The electronic receipt of a document: the whole receipt as a Base64 PNG (same as paper). */
export function electronicReceipt(
  deps: { renderer: ReceiptImageRenderer; printer: ReceiptPrinter },
  doc: IndexedDocument,
  merchant: MerchantRecord,
): string {
  return bytesToBase64(deps.renderer.renderPng(documentLayout(doc, merchant, deps.printer.charsPerLine)));
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
 * Prints the original of a document and records the outcome in the journal (printed, or failed
 * with the printer code). Resolves with the printer code on failure, undefined on success.
 */
export async function printOriginal(
  deps: { journal: Journal; index: JournalIndex; printer: ReceiptPrinter },
  doc: IndexedDocument,
  merchant: MerchantRecord,
  openDrawer: boolean,
): Promise<number | undefined> {
  const layout = documentLayout(doc, merchant, deps.printer.charsPerLine);
  let printerCode: number | undefined;
  try {
    await deps.printer.print({ kind: 'receipt', layout, openDrawer, reference: doc.document.documentNumber });
  } catch (e) {
    printerCode = printerCodeOf(e);
  }
  await deps.journal.append({
    type: 'print',
    body: {
      documentNo: doc.document.documentNo,
      copy: false,
      ok: printerCode === undefined,
      ...(printerCode === undefined ? {} : { printerCode }),
    },
  });
  return printerCode;
}
