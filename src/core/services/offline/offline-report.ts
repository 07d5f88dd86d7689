import {
  type ApiDocument,
  type ApiEkasaStatus,
  SET_ASIDE_DETAIL,
  toApiDocument,
} from '../../documents/api-document.js';
import { isAbsent } from '../../documents/field-rules.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import { type ApiLocation, toApiLocation } from '../../location/api-location.js';
import type { MerchantView } from '../../merchant/merchant-record.js';
import { handedOver } from '../../offline/fix-document.js';
import { stuckCause } from '../../offline/last-request.js';
import {
  estimatedBytes,
  reportEndLayout,
  reportHeadingLayout,
  reportItemLayout,
} from '../../offline/offline-report-layout.js';
import { registerRefusalKind } from '../../offline/register-refusal.js';
import type { IndexedDocument, IndexedLocation, QueueEntry } from '../../ports/indexed-records.js';
import type { OfflineReportQuery } from '../../ports/offline-report-index.js';
import type { PrintOptions } from '../../ports/receipt-printer.js';
import { MAX_PRINT_DELAY_MS, MIN_WINDOW_BYTES, PacingPlan } from '../../printing/print-pacing.js';
import type { ReceiptLayout } from '../../receipt/receipt-blocks.js';
import { parseApiDateTime } from '../../time.js';
import { printerCodeOf, printerError } from '../documents/document-receipt.js';
import { merchantViewOf, type OfflineDeps } from './offline-deps.js';

/** The built-in limit of one report: at most this many items per answer (docs/offline.md). */
export const REPORT_MAX_ITEMS = 1000;

/** `GetOfflineDocumentsRequest` (API v1.7 text, the offline report models). */
export interface OfflineReportInput {
  limit?: number | null | undefined;
  offset?: number | null | undefined;
  offlineDocumentsFilter?:
    | {
        sequenceId?: number | null | undefined;
        from?: string | null | undefined;
        to?: string | null | undefined;
      }
    | null
    | undefined;
  printer?:
    | { windowSize?: number | null | undefined; printDelay?: number | null | undefined }
    | null
    | undefined;
}

/** A document of the report: the API document plus where it stands (offline, or the SFS rejection). */
export type ApiOfflineDocument = ApiDocument<MerchantView> & { status: ApiEkasaStatus };

/** Documents and locations not registered (or, for send/offline, just registered). */
export interface OfflineItemsResponse {
  resultCode: 0;
  documents: ApiOfflineDocument[];
  locations: ApiLocation<MerchantView>[];
}

/**
 * `OfflineReportResponse` (API v1.7 text, the offline report models): empty lists mean nothing
 * waits. `totalItems` and `moreItems` are kasa's (ADR 0716): the report is cut at `limit` (1000 by
 * default), and a POS must be able to tell a cut list from a complete one.
 */
export interface OfflineReportResponse extends OfflineItemsResponse {
  /** How many items match the filter in all, whatever `offset` and `limit`. */
  totalItems: number;
  /** Items match past this page: ask again with `offset` + the items listed here. */
  moreItems: boolean;
}

/**
 * `POST /api/report/offline` (API text: Report API): what is not registered with the SFS — offline
 * and stuck documents first, then locations, each in creation order — filtered by `sequenceId`,
 * `from`, `to` in any combination, `offset` items skipped, at most `limit` (≤ 1000) returned. With
 * `printer` the report is printed too, paced by `windowSize`/`printDelay`; a print cut short
 * answers the printer's code with the `offset` to resume at, which prints exactly the rest.
 */
export class OfflineReport {
  /** A printed report is under way (one at a time: two would interleave on paper). */
  #printing = false;

  constructor(private readonly deps: OfflineDeps) {}

  async execute(input: OfflineReportInput): Promise<OfflineReportResponse> {
    const query = readQuery(input);
    const pacing = readPacing(input.printer);
    if (pacing === undefined) return this.#answer(query).response;
    // ADR 0709: the report writes nothing to the CHDÚ, so it never takes the write lock — sales go
    // on while it prints and pauses; the printer adapter serialises its own jobs.
    if (this.#printing) {
      throw new FiscalError(
        'BUSY',
        'Another offline report is being printed; print this one when it has ended.',
      );
    }
    this.#printing = true;
    try {
      const { response, entries } = this.#answer(query);
      await this.#print(entries, query.offset, pacing, response);
      return response;
    } finally {
      this.#printing = false;
    }
  }

  /** `GET /api/report/offline/oldest`: the oldest item not registered, in the same lists. */
  oldest(): OfflineItemsResponse {
    const entry = this.deps.index.oldestOffline();
    return this.#respond(entry ? [entry] : []);
  }

  #answer(query: OfflineReportQuery): { response: OfflineReportResponse; entries: QueueEntry[] } {
    const page = this.deps.index.offlineReport(query);
    const entries: QueueEntry[] = [
      ...page.documents.map((item): QueueEntry => ({ kind: 'document', recordNo: item.recordNo, item })),
      ...page.locations.map((item): QueueEntry => ({ kind: 'location', recordNo: item.recordNo, item })),
    ];
    // ADR 0716: say whether the list is cut, so a POS pages on with offset instead of taking a
    // page of 1000 for the whole backlog.
    const response: OfflineReportResponse = {
      ...this.#respond(entries),
      totalItems: page.total,
      moreItems: query.offset + entries.length < page.total,
    };
    return { response, entries };
  }

  #respond(entries: readonly QueueEntry[]): OfflineItemsResponse {
    const documents: ApiOfflineDocument[] = [];
    const locations: ApiLocation<MerchantView>[] = [];
    for (const entry of entries) {
      if (entry.kind === 'document') documents.push(this.#document(entry.item));
      else locations.push(this.#location(entry.item));
    }
    return { resultCode: 0, documents, locations };
  }

  #document(doc: IndexedDocument): ApiOfflineDocument {
    const view = merchantViewOf(this.deps, doc.document.merchantRecordNo);
    return {
      ...toApiDocument(doc, view),
      status: offlineStatus({ kind: 'document', recordNo: doc.recordNo, item: doc }),
    };
  }

  #location(loc: IndexedLocation): ApiLocation<MerchantView> {
    return toApiLocation(loc, merchantViewOf(this.deps, loc.location.merchantRecordNo));
  }

  async #print(
    entries: readonly QueueEntry[],
    offset: number,
    pacing: PrintOptions,
    response: OfflineReportResponse,
  ): Promise<void> {
    const width = this.deps.printer.charsPerLine;
    const jobs: Array<{ layout: ReceiptLayout; item: boolean }> = [
      { layout: reportHeadingLayout(width, this.deps.clock.now(), entries.length, offset), item: false },
      ...entries.map((entry, i) => ({ layout: reportItemLayout(width, entry, offset + i + 1), item: true })),
      { layout: reportEndLayout(width), item: false },
    ];
    let printed = 0;
    // API text: windowSize/printDelay keep a long report from overheating the head. The report is
    // paced as one print — pauses between its item jobs, at most two minutes in all, windows
    // widening if need be (ADR 0516); the item jobs themselves go to the printer unpaced. It
    // writes nothing to the CHDÚ and does not hold the one-writer lock while it pauses (ADR 0709).
    const plan = new PacingPlan(
      jobs.reduce((n, j) => n + estimatedBytes(j.layout), 0),
      pacing,
    );
    for (const job of jobs) {
      const pause = plan.before(estimatedBytes(job.layout));
      if (pause > 0) await this.deps.scheduler.sleep(pause);
      try {
        await this.deps.printer.print({ kind: 'text', layout: job.layout, reference: 'offline-report' });
      } catch (e) {
        const code = printerCodeOf(e);
        const resume = offset + printed;
        throw printerError(
          code,
          `The offline report stopped after ${printed} of ${entries.length} item(s) (printer code ${code}); print the rest with {"printer": {}, "offset": ${resume}}.`,
          {
            offset: resume,
            printedItems: printed,
            documents: response.documents,
            locations: response.locations,
          },
        );
      }
      if (job.item) printed += 1;
    }
  }
}

/** Where a not-registered item stands, as EkasaStatus: the SFS rejection, or waiting offline. */
export function offlineStatus(entry: QueueEntry): ApiEkasaStatus {
  if (entry.item.sendState === 'set-aside') {
    const { code, text } = stuckCause(entry);
    return { error: { errorType: 'EKASA', errorCode: code, message: text, detail: SET_ASIDE_DETAIL } };
  }
  if (entry.item.sendState === 'stuck') {
    const { code, text } = stuckCause(entry);
    return {
      error: {
        errorType: 'EKASA',
        errorCode: code,
        message: text,
        detail:
          entry.kind === 'document'
            ? handedOver(entry.item)
              ? // ADR 0712: the customer holds it as it was signed; only `{}` sends it again.
                `Rejected by the SFS; it was handed over to the customer, so no fix may change it: send it again as it is with POST /api/document/update {"internalDocumentId": ${entry.item.document.documentNo}, "fixDocument": {}} once the cause has passed, or set it aside (POST /api/offline/set-aside). Documents are repaired oldest first.`
              : `Rejected by the SFS; repair it with POST /api/document/update {"internalDocumentId": ${entry.item.document.documentNo}, "fixDocument": …} (docs/offline.md lists the fix per code; documents are repaired oldest first).`
            : `Rejected by the SFS; repair it with POST /api/location/update {"locationInternalId": ${entry.item.location.locationNo}, "fixLocation": …} (locations are repaired newest first).`,
      },
    };
  }
  const last = entry.item.lastExchange;
  const refusal = last?.registerRefused ? registerRefusalKind(last.errorCode) : undefined;
  if (last && refusal) {
    // ADR 0711: the SFS refused the register, not this item: it stays queued.
    return {
      warning: {
        warningType: 'OFFLINE',
        message: `Not registered yet: the SFS refuses this register (${last.errorCode}: ${last.errorText ?? ''}); it stays queued and is sent once that is fixed.`,
        detail: `${refusal.cause}: ${refusal.todo}.`,
      },
    };
  }
  return {
    warning: {
      warningType: 'OFFLINE',
      message: 'Not registered yet; it is stored and the register sends it.',
      detail:
        last === undefined
          ? 'not sent yet'
          : `last attempt ${last.sendingCount}: ${last.outcome}${last.errorText ? ` (${last.errorText})` : ''}`,
    },
  };
}

function readQuery(input: OfflineReportInput): OfflineReportQuery {
  const limit = readInteger(input.limit, 'limit', 1, REPORT_MAX_ITEMS) ?? REPORT_MAX_ITEMS;
  const offset = readInteger(input.offset, 'offset', 0, 1_000_000_000) ?? 0;
  const filter = input.offlineDocumentsFilter ?? {};
  const sequenceId = readInteger(filter.sequenceId, 'offlineDocumentsFilter.sequenceId', 1, 2_147_483_647);
  const from = readDate(filter.from, 'offlineDocumentsFilter.from');
  const to = readDate(filter.to, 'offlineDocumentsFilter.to');
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidInput('offlineDocumentsFilter.to', 'must not be earlier than from');
  }
  return {
    limit,
    offset,
    ...(sequenceId === undefined ? {} : { sequenceId }),
    ...(from === undefined ? {} : { fromMs: from }),
    ...(to === undefined ? {} : { toMs: to }),
  };
}

/** The printer's pacing, or undefined when the report is not to be printed. */
function readPacing(printer: OfflineReportInput['printer']): PrintOptions | undefined {
  if (isAbsent(printer)) return undefined;
  const windowSize = readInteger(printer.windowSize, 'printer.windowSize', 0, 10_000_000);
  if (windowSize !== undefined && windowSize > 0 && windowSize < MIN_WINDOW_BYTES) {
    throw invalidInput('printer.windowSize', `must be 0 (one window) or at least ${MIN_WINDOW_BYTES} bytes`);
  }
  const printDelay = readInteger(printer.printDelay, 'printer.printDelay', 0, MAX_PRINT_DELAY_MS);
  return {
    ...(windowSize === undefined ? {} : { windowSize }),
    ...(printDelay === undefined ? {} : { printDelay }),
  };
}

function readInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(field, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function readDate(value: unknown, field: string): number | undefined {
  if (isAbsent(value) || value === '') return undefined;
  const parsed = typeof value === 'string' ? parseApiDateTime(value) : undefined;
  if (!parsed)
    throw invalidInput(field, 'must be dd.MM.yyyy HH:mm:ss (Bratislava time) or ISO 8601 with an offset');
  return parsed.getTime();
}
