import { randomUUID } from 'node:crypto';
import { type PaperWidthPx, PngReceiptRenderer } from '../adapters/receipt-image/png-receipt-renderer.js';
import type { IdSource } from '../core/ports/clock.js';
import type { ReceiptImageRenderer } from '../core/ports/receipt-renderer.js';
import { CashOperation } from '../core/services/documents/cash-operation.js';
import type { DocumentDeps } from '../core/services/documents/document-deps.js';
import { GetDocument } from '../core/services/documents/get-document.js';
import { PrintPendingDocument } from '../core/services/documents/print-pending-document.js';
import { StoreDocument } from '../core/services/documents/store-document.js';
import type { RoutePlugin } from '../http/app.js';
import { documentRoutes } from '../http/routes/documents.js';

export const cryptoIds: IdSource = { uuid: () => randomUUID() };

/**
 * Electronic receipts: drawn at the printer's paper width (a number, or read on every rendering
 * when the settings may change it), the logo resolved from `images`.
 */
export function pngRenderer(paperWidth: PaperWidthPx | (() => PaperWidthPx)): ReceiptImageRenderer {
  const renderer = new PngReceiptRenderer();
  const width = typeof paperWidth === 'function' ? paperWidth : () => paperWidth;
  return {
    renderPng: (layout, images) =>
      renderer.render(layout, { paperWidthPx: width(), ...(images === undefined ? {} : { images }) }).png,
  };
}

/** The document use cases and their routes (capability 6). */
export function composeDocuments(deps: DocumentDeps): RoutePlugin {
  return documentRoutes({
    store: new StoreDocument(deps),
    get: new GetDocument(deps),
    print: new PrintPendingDocument(deps),
    cash: new CashOperation(deps),
  });
}
