import { FiscalError } from '../../fiscal-error.js';
import {
  afterExchange,
  afterPrint,
  NEW_PRINT_TRACK,
  NEW_SEND_TRACK,
  type PrintTrack,
  type SendTrack,
} from '../../journal/derived-state.js';
import type { DocumentRecord, PrintRecord, SfsExchangeRecord } from '../../journal/records.js';
import type { Journal } from '../../ports/journal.js';
import type { IndexedDocument, JournalIndex } from '../../ports/journal-index.js';

/**
 * A document this request wrote, as the index will show it once it has every record of the
 * request (ADR 0116). The CHDÚ is the truth: when the index could not follow a write (a full disk,
 * SQLITE_FULL), the answer is derived from the records written, by the same pure rules the index
 * applies (`derived-state.ts`), so the POS still gets its document, never "not in the index".
 */
export class WrittenDocument {
  private send: SendTrack;
  private print: PrintTrack = NEW_PRINT_TRACK;

  constructor(
    private readonly deps: { index: JournalIndex; journal: Pick<Journal, 'head'> },
    readonly record: DocumentRecord,
    readonly recordNo: number,
  ) {
    this.send = record.notSent ? { ...NEW_SEND_TRACK, sendState: 'not-sent' } : NEW_SEND_TRACK;
  }

  /** An `sfs-exchange` record about this document reached the CHDÚ. */
  exchanged(exchange: SfsExchangeRecord): void {
    this.send = afterExchange(this.send, exchange);
  }

  /** A `print` record about this document reached the CHDÚ. */
  printed(print: PrintRecord): void {
    this.print = afterPrint(this.print, print);
  }

  /** From the index when it is at the journal head, else derived from the records written. */
  current(): IndexedDocument {
    const indexed =
      this.deps.index.highWaterMark() === (this.deps.journal.head()?.recordNo ?? 0)
        ? this.deps.index.findDocument({ by: 'documentNo', documentNo: this.record.documentNo })
        : undefined;
    return indexed ?? this.derived();
  }

  /**
   * Derived from the records this request wrote (and is writing): what the receipt is laid out
   * from while the last of them is still on its way to the CHDÚ (ADR 1109).
   */
  derived(): IndexedDocument {
    const s = this.send;
    return {
      recordNo: this.recordNo,
      document: this.record,
      sendState: s.sendState,
      ...(s.lastExchange ? { lastExchange: s.lastExchange } : {}),
      ...(s.accepted ? { accepted: s.accepted } : {}),
      sendingCount: s.sendingCount,
      printState: this.print.printState,
      ...(this.print.lastPrinterCode === undefined ? {} : { lastPrinterCode: this.print.lastPrinterCode }),
      ...(this.print.printStarted ? { printStarted: true as const } : {}),
      ...(this.print.drawerOpened ? { drawerOpened: true as const } : {}),
      ...(this.print.receiptForm === undefined ? {} : { receiptForm: this.print.receiptForm }),
    };
  }
}

const STORAGE_CODES: ReadonlySet<number> = new Set([200, 201, 202, 203]);

/**
 * ADR 0116 (and 0114): a write whose last answer was lost (a timeout or a dropped line right after
 * the device stored the last block) fails although the whole record is in the CHDÚ. Then the
 * document exists and the flow goes on; anything else is the write's own error.
 */
export async function landedAnyway(
  deps: { journal: Pick<Journal, 'get'> },
  error: unknown,
  recordNo: number,
  record: DocumentRecord,
): Promise<number> {
  if (!FiscalError.is(error) || !STORAGE_CODES.has(error.resultCode)) throw error;
  const there = await deps.journal.get(recordNo).catch(() => undefined);
  const same =
    there?.type === 'document' &&
    there.body.documentNo === record.documentNo &&
    there.body.okp === record.okp;
  if (!same) throw error;
  return recordNo;
}

/**
 * ADR 0116: a failure after the document reached the CHDÚ (its exchange or print record could not
 * be written — a full disk, the CHDÚ unplugged) keeps its code but names the stored document and
 * how to get it, so a POS never takes it for a sale that did not happen.
 */
export function storedButIncomplete(e: unknown, record: DocumentRecord): unknown {
  if (!FiscalError.is(e) || !STORAGE_CODES.has(e.resultCode)) return e;
  return new FiscalError(
    e.resultName,
    `Document ${record.documentNumber} is stored in the CHDÚ, but a later step could not be recorded: ${e.message} Once the register is back, POST /api/document/get {} returns it; if its original did not come out of the printer, print it with POST /api/document/print.`,
    {
      ...(e.details ?? {}),
      stored: true,
      documentNumber: record.documentNumber,
      internalDocumentId: record.documentNo,
    },
    { cause: e },
  );
}
