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
    if (indexed) return indexed;
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
    };
  }
}
