import { invalidInput } from '../../fiscal-error.js';
import type { Clock } from '../../ports/clock.js';
import type { DocumentListIndex } from '../../ports/document-list-index.js';
import type { PrintOptions } from '../../ports/receipt-printer.js';
import { type DailySummary, dailySummary } from '../../reports/daily-summary.js';
import { dayRange, localDay } from '../../reports/day-range.js';
import { summaryText } from '../../reports/summary-text.js';
import { formatApiDateTime } from '../../time.js';

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
}

export interface SummaryResult {
  resultCode: 0;
  from: string;
  to: string;
  summary: DailySummary;
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
    return { resultCode: 0, from: range.from, to: range.to, summary };
  }

  async print(
    input: { from?: string | undefined; to?: string | undefined },
    options?: PrintOptions,
  ): Promise<SummaryResult & { recordNo: number }> {
    const result = this.execute(input);
    const text = summaryText(
      result.summary,
      { from: result.from, to: result.to, printedAt: formatApiDateTime(this.deps.clock.now()) },
      this.deps.charsPerLine(),
    );
    const printed = await this.deps.printText(text, options);
    return { ...result, recordNo: printed.recordNo };
  }
}
