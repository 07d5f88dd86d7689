import { invalidInput } from '../../fiscal-error.js';
import type { Clock } from '../../ports/clock.js';
import type { DocumentListIndex } from '../../ports/document-list-index.js';
import type { PrintOptions } from '../../ports/receipt-printer.js';
import { type DailySummary, dailySummary } from '../../reports/daily-summary.js';
import { dayRange, localDay } from '../../reports/day-range.js';
import { summaryText } from '../../reports/summary-text.js';
import { formatApiDateTime } from '../../time.js';
import type { QrTenderTotals } from '../qr-payments/qr-payment-day.js';

/** A report reads at most this many documents (bounded work per request). */
export const SUMMARY_MAX_DOCUMENTS = 100_000;

export interface ReportSummaryDeps {
  documents: DocumentListIndex;
  clock: Clock;
  /** The payment names that mean cash (setting `cashPaymentNames`). */
  cashPaymentNames: () => readonly string[];
  /** Characters per line of the printer in force. */
  charsPerLine: () => number;
  /** Prints free text (stored in the CHDÚ first, like `POST /api/print`). */
  printText: (text: string, options?: PrintOptions) => Promise<{ resultCode: 0; recordNo: number }>;
  /**
   * QR payments (capability 15), when the register has them: the day's intents by state and money
   * (`YYYY-MM-DD`, Europe/Bratislava), and the `payments` name receipts use for them.
   */
  qr?: { dayTotals(day: string): QrTenderTotals; tenderName(): string };
}

/** The QR tender of a period (ADR 1006): the receipts' QR payments and the intents behind them. */
export interface QrSummary {
  tenderName: string;
  /** What the period's receipts were paid under `tenderName` (paid back counting negative). */
  tenderCents: number;
  /** Intents of the period: used on receipts, paid but not used yet, paid late, paid a wrong amount. */
  usedCents: number;
  paidNotUsedCents: number;
  lateCents: number;
  mismatchCents: number;
  count: QrTenderTotals['count'];
}

export interface SummaryResult {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummary;
  qr?: QrSummary;
}

/**
 * The daily summary (`GET /api/report/summary?from&to`, an extension, ADR 1006): the documents
 * created on the days from–to (Europe/Bratislava) summed from the CHDÚ's records; and its print
 * on the receipt printer (`POST /api/report/summary/print`).
 */
export class ReportSummary {
  constructor(private readonly deps: ReportSummaryDeps) {}

  execute(input: { from?: string | undefined; to?: string | undefined }): SummaryResult {
    const range = dayRange(input, localDay(this.deps.clock.now()));
    const period = { from: range.start, to: range.end };
    const count = this.deps.documents.countDocuments(period);
    if (count > SUMMARY_MAX_DOCUMENTS) {
      throw invalidInput(
        'to',
        `the period holds ${count} documents; a summary reads at most ${SUMMARY_MAX_DOCUMENTS}: choose a shorter period`,
      );
    }
    const summary = dailySummary(this.deps.documents.documentsIn(period), this.deps.cashPaymentNames());
    const qr = this.deps.qr ? qrSummary(this.deps.qr, summary, range.from, range.to) : undefined;
    return { resultCode: 0, from: range.from, to: range.to, summary, ...(qr ? { qr } : {}) };
  }

  async print(
    input: { from?: string | undefined; to?: string | undefined },
    options?: PrintOptions,
  ): Promise<SummaryResult & { recordNo: number }> {
    const result = this.execute(input);
    const text = summaryText(
      result.summary,
      result.qr,
      { from: result.from, to: result.to, printedAt: formatApiDateTime(this.deps.clock.now()) },
      this.deps.charsPerLine(),
    );
    const printed = await this.deps.printText(text, options);
    return { ...result, recordNo: printed.recordNo };
  }
}

/** Sums the QR intents of every day of the period and finds the tender among the payments. */
function qrSummary(
  qr: NonNullable<ReportSummaryDeps['qr']>,
  summary: DailySummary,
  from: string,
  to: string,
): QrSummary {
  const tenderName = qr.tenderName();
  const out: QrSummary = {
    tenderName,
    tenderCents: summary.payments.filter((p) => p.name === tenderName).reduce((a, p) => a + p.totalCents, 0),
    usedCents: 0,
    paidNotUsedCents: 0,
    lateCents: 0,
    mismatchCents: 0,
    count: {} as QrTenderTotals['count'],
  };
  for (let day = from; day <= to; day = nextDay(day)) {
    const t = qr.dayTotals(day);
    out.usedCents += t.usedCents;
    out.paidNotUsedCents += t.paidNotUsedCents;
    out.lateCents += t.lateCents;
    out.mismatchCents += t.mismatchCents;
    for (const [state, n] of Object.entries(t.count) as Array<[keyof QrTenderTotals['count'], number]>) {
      out.count[state] = (out.count[state] ?? 0) + n;
    }
  }
  return out;
}

function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
