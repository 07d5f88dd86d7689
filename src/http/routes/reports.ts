import { centsToNumber } from '../../core/documents/decimal.js';
import type { DailySummary } from '../../core/reports/daily-summary.js';
import type { DocumentView } from '../../core/services/documents/document-view.js';
import type { ListDocuments } from '../../core/services/documents/list-documents.js';
import { printOptionsOf } from '../../core/services/documents/store-document.js';
import type { ReportSummary, SummaryResult } from '../../core/services/reports/report-summary.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import {
  DocumentListQuery,
  DocumentListResponse,
  DocumentViewQuery,
  DocumentViewResponse,
  EXTENSION,
  EXTENSION_NOTE,
  SummaryPrintRequest,
  SummaryPrintResponse,
  SummaryQuery,
  SummaryResponse,
} from '../schemas/reports.js';

export interface ReportRouteDeps {
  list: ListDocuments;
  view: DocumentView;
  summary: ReportSummary;
}

/**
 * The extensions the admin page needs beyond the API text (capability 12, ADR 1005, ADR 0008 §18
 * recorded there): the document list, one document with its receipt image, and the daily summary
 * (shown and printed). Under /api/, with every rule of /api/ (token, same origin), answered only
 * while the register can work, and marked `x-kasa-extension` in the OpenAPI document.
 */
export function reportRoutes(deps: ReportRouteDeps): RoutePlugin {
  return (app) => {
    app.get(
      '/api/documents',
      {
        schema: {
          ...EXTENSION,
          summary: 'The documents of the CHDÚ, latest first, a page at a time (extension)',
          description: `${EXTENSION_NOTE}Filter by days (from, to), types; page with limit and the nextCursor of the previous page. Look one up by number, OKP, UUID or external id with POST /api/document/get.`,
          querystring: DocumentListQuery,
          response: { 200: DocumentListResponse, ...errorResponses },
        },
      },
      async (request) => deps.list.execute(request.query),
    );
    app.get(
      '/api/documents/view',
      {
        schema: {
          ...EXTENSION,
          summary: 'One document with its SFS and print state and its receipt image (extension)',
          description: `${EXTENSION_NOTE}Read-only; 506 (HTTP 404) when there is no such document. Print a copy with POST /api/document/get and a printer object.`,
          querystring: DocumentViewQuery,
          response: { 200: DocumentViewResponse, ...errorResponses },
        },
      },
      async (request) => deps.view.execute(request.query.id),
    );
    app.get(
      '/api/report/summary',
      {
        schema: {
          ...EXTENSION,
          summary: 'Daily summary (closing) of a day or a period (extension)',
          description: `${EXTENSION_NOTE}Counts by type, totals by VAT rate and by payment method, refunds, deposits, withdrawals and the cash that should be in the drawer — sums of the documents in the CHDÚ created on the days from–to (Europe/Bratislava; default today). docs/admin.md defines each number.`,
          querystring: SummaryQuery,
          response: { 200: SummaryResponse, ...errorResponses },
        },
      },
      async (request) => apiSummary(deps.summary.execute(request.query)),
    );
    app.post(
      '/api/report/summary/print',
      {
        schema: {
          ...EXTENSION,
          summary: 'Print the daily summary on the receipt printer (extension)',
          description: `${EXTENSION_NOTE}Printed as free text (stored in the CHDÚ like POST /api/print, no document number). Answers the summary printed; a failed print answers the printer code (100-106).`,
          body: SummaryPrintRequest,
          response: { 200: SummaryPrintResponse, ...errorResponses },
        },
      },
      async (request) => {
        const { printer, ...period } = request.body;
        const printed = await deps.summary.print(period, printOptionsOf(printer));
        return { ...apiSummary(printed), recordNo: printed.recordNo };
      },
    );
  };
}

/** The summary with amounts as JSON numbers in EUR, like every amount of the API. */
function apiSummary(result: SummaryResult) {
  const s: DailySummary = result.summary;
  const ct = (x: { count: number; totalCents: number }) => ({
    count: x.count,
    total: centsToNumber(x.totalCents),
  });
  return {
    resultCode: 0 as const,
    from: result.from,
    to: result.to,
    summary: {
      counts: s.counts,
      notValid: s.notValid,
      setAside: s.setAside,
      vatRates: s.vatRates.map((r) => ({
        title: r.title,
        base: centsToNumber(r.baseCents),
        vat: centsToNumber(r.vatCents),
        sum: centsToNumber(r.grossCents),
      })),
      vatTotal: {
        base: centsToNumber(s.vatTotal.baseCents),
        vat: centsToNumber(s.vatTotal.vatCents),
        sum: centsToNumber(s.vatTotal.grossCents),
      },
      turnover: centsToNumber(s.turnoverCents),
      sales: ct(s.sales),
      refunds: ct(s.refunds),
      invoicePayments: ct(s.invoicePayments),
      rounding: centsToNumber(s.roundingCents),
      payments: s.payments.map((p) => ({
        name: p.name,
        total: centsToNumber(p.totalCents),
        change: centsToNumber(p.changeCents),
        net: centsToNumber(p.netCents),
        cash: p.cash,
      })),
      deposits: ct(s.deposits),
      withdrawals: ct(s.withdrawals),
      cashInDrawer: centsToNumber(s.cashInDrawerCents),
    },
    ...(result.qr
      ? {
          qr: {
            tenderName: result.qr.tenderName,
            tender: centsToNumber(result.qr.tenderCents),
            used: centsToNumber(result.qr.usedCents),
            paidNotUsed: centsToNumber(result.qr.paidNotUsedCents),
            late: centsToNumber(result.qr.lateCents),
            mismatch: centsToNumber(result.qr.mismatchCents),
            count: result.qr.count,
          },
        }
      : {}),
  };
}
