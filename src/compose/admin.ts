import { SqliteDocumentList } from '../adapters/index/sqlite-document-list.js';
import type { SqliteJournalIndex } from '../adapters/index/sqlite-journal-index.js';
import type { Clock } from '../core/ports/clock.js';
import type { Journal } from '../core/ports/journal.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import type { ReceiptImageRenderer } from '../core/ports/receipt-renderer.js';
import { DocumentView } from '../core/services/documents/document-view.js';
import { ListDocuments } from '../core/services/documents/list-documents.js';
import { PrintFreeText } from '../core/services/printing/print-free-text.js';
import { QrPaymentDay } from '../core/services/qr-payments/qr-payment-day.js';
import type { QrPaymentDeps } from '../core/services/qr-payments/qr-payment-deps.js';
import { ReportSummary } from '../core/services/reports/report-summary.js';
import type { WriteLock } from '../core/services/write-lock.js';
import type { LiveSettings } from '../core/settings/live-settings.js';
import type { RoutePlugin } from '../http/app.js';
import { adminRoutes } from '../http/routes/admin.js';
import { reportRoutes } from '../http/routes/reports.js';
import { loadAdminPage } from '../web/admin-page.js';

/**
 * The admin page (capability 12): the page itself at `/` and `/admin/`, and the extension endpoints it
 * needs beyond the API text (document list and view, daily summary).
 */
export function composeAdmin(w: {
  journal: Journal;
  index: SqliteJournalIndex;
  lock: WriteLock;
  printer: ReceiptPrinter;
  renderer: ReceiptImageRenderer;
  logo: { images(): ReadonlyMap<string, Uint8Array> };
  clock: Clock;
  settings: LiveSettings;
  /** QR payments (capability 15): the daily summary shows their tender and intents. */
  qrPayments?: QrPaymentDeps;
}): RoutePlugin[] {
  const documents = new SqliteDocumentList(w.index.database, w.index);
  const printText = new PrintFreeText(w);
  const qrDeps = w.qrPayments;
  const qrDay = qrDeps ? new QrPaymentDay(qrDeps) : undefined;
  return [
    reportRoutes({
      list: new ListDocuments({ documents, clock: w.clock }),
      view: new DocumentView(w),
      summary: new ReportSummary({
        documents,
        clock: w.clock,
        cashPaymentNames: () => w.settings.current().cashPaymentNames,
        charsPerLine: () => w.printer.charsPerLine,
        printText: (text, options) => printText.execute(text, options),
        ...(qrDay && qrDeps
          ? {
              qr: {
                dayTotals: (day: string) => qrDay.execute({ date: day }).totals,
                tenderName: () => qrDeps.settings().nopTenderName,
              },
            }
          : {}),
      }),
    }),
    adminRoutes(loadAdminPage()),
  ];
}
