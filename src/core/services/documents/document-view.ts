import { bytesToBase64 } from '../../base64.js';
import { type ApiDocument, toApiDocument } from '../../documents/api-document.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import { type MerchantView, merchantView } from '../../merchant/merchant-record.js';
import type { Clock } from '../../ports/clock.js';
import type { Journal } from '../../ports/journal.js';
import type { JournalIndex, PrintState, SendState } from '../../ports/journal-index.js';
import type { ReceiptImageRenderer } from '../../ports/receipt-renderer.js';
import { renderReceiptText } from '../../receipt/receipt-text.js';
import { documentLayout, merchantOf, receiptImages } from './document-receipt.js';

export interface DocumentViewDeps {
  journal: Journal;
  index: JournalIndex;
  renderer: ReceiptImageRenderer;
  printer: { readonly charsPerLine: number };
  logo?: { images(): ReadonlyMap<string, Uint8Array> };
  clock: Clock;
}

export interface DocumentViewResult {
  resultCode: 0;
  document: ApiDocument<MerchantView>;
  /** Where the document stands with the SFS. */
  sfs: {
    state: SendState;
    sendingCount: number;
    lastAttempt?: { requestDate: string; outcome: string; errorCode?: number; errorText?: string };
    accepted?: { uuid?: string; processDate?: string };
  };
  print: { state: PrintState; lastPrinterCode?: number };
  /** The receipt as a copy would print now: PNG (Base64) and the same lines as text. */
  receipt: { imageData: string; text: string; charsPerLine: number };
}

/**
 * `GET /api/documents/view?id=N` (capability 12, ADR 1005): one document with its SFS and print state
 * and its receipt image, for the admin page. Read-only; nothing is printed or written.
 */
export class DocumentView {
  constructor(private readonly deps: DocumentViewDeps) {}

  async execute(id: number): Promise<DocumentViewResult> {
    if (!Number.isInteger(id) || id < 1) throw invalidInput('id', 'must be an internalDocumentId (1, 2, …)');
    const doc = this.deps.index.findDocument({ by: 'documentNo', documentNo: id });
    if (!doc) throw new FiscalError('NOT_FOUND', `Document ${id} not found.`);
    const { recordNo, merchant } = await merchantOf(this.deps, doc);
    const { images, logo } = receiptImages(this.deps);
    const charsPerLine = this.deps.printer.charsPerLine;
    const layout = documentLayout(doc, merchant, charsPerLine, { logo });
    const last = doc.lastExchange;
    return {
      resultCode: 0,
      document: toApiDocument(doc, merchantView(recordNo, merchant, this.deps.clock.now())),
      sfs: {
        state: doc.sendState,
        sendingCount: doc.sendingCount,
        ...(last
          ? {
              lastAttempt: {
                requestDate: last.requestDate,
                outcome: last.outcome,
                ...(last.errorCode === undefined ? {} : { errorCode: last.errorCode }),
                ...(last.errorText === undefined ? {} : { errorText: last.errorText }),
              },
            }
          : {}),
        ...(doc.accepted
          ? {
              accepted: {
                ...(doc.accepted.id === undefined ? {} : { uuid: doc.accepted.id }),
                ...(doc.accepted.processDate === undefined ? {} : { processDate: doc.accepted.processDate }),
              },
            }
          : {}),
      },
      print: {
        state: doc.printState,
        ...(doc.lastPrinterCode === undefined ? {} : { lastPrinterCode: doc.lastPrinterCode }),
      },
      receipt: {
        imageData: bytesToBase64(this.deps.renderer.renderPng(layout, images)),
        text: renderReceiptText(layout),
        charsPerLine,
      },
    };
  }
}
