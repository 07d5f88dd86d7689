import { paragonKey } from '../../documents/paragon-key.js';
import { FiscalError } from '../../fiscal-error.js';
import {
  afterAttemptStarted,
  afterExchange,
  afterPrint,
  afterRepair,
  NEW_PRINT_TRACK,
  NEW_SEND_TRACK,
  type SendTrack,
} from '../../journal/derived-state.js';
import type { DocumentRecord, JournalRecord } from '../../journal/records.js';
import type { DocumentIndex } from '../../ports/document-index.js';
import type { Journal } from '../../ports/journal.js';
import type { DocumentQuery, IndexedDocument, IndexMaintenance } from '../../ports/journal-index.js';

/**
 * The most CHDÚ records one look-up reads past the index's high-water mark. The tail is short in
 * practice: an index that cannot take a record refuses every further write at once (ADR 0116), so
 * it holds the records of the one request that was in flight.
 */
export const MAX_TAIL_RECORDS = 1_000;

/** How often the tail is read again when the index moved while it was being read. */
const ATTEMPTS = 3;

const DOCUMENT_NUMBER = /^(\d{4})(\d{2})\/(\d+)$/;

type TailDeps = {
  index: DocumentIndex & Pick<IndexMaintenance, 'highWaterMark'>;
  journal: Pick<Journal, 'head' | 'records'>;
};

/**
 * A document look-up that answers up to the journal head (ADR 0116). The CHDÚ is the truth: when
 * the index lags behind it (its disk full, SQLITE_FULL), the records past its high-water mark are
 * read from the CHDÚ and applied by the same pure rules the index applies (`derived-state.ts`), so
 * "the last document" is the one just stored and a document the CHDÚ holds is never "not found".
 */
export async function findDocumentToHead(
  deps: TailDeps,
  query: DocumentQuery,
): Promise<IndexedDocument | undefined> {
  for (let attempt = 1; ; attempt++) {
    const mark = deps.index.highWaterMark();
    const head = deps.journal.head()?.recordNo ?? 0;
    if (mark >= head) return deps.index.findDocument(query);
    if (head - mark > MAX_TAIL_RECORDS) {
      throw new FiscalError(
        'CHDU_WRITE_ERROR',
        `The index is ${head - mark} records behind the CHDÚ (index at record ${mark}, CHDÚ at ${head}); documents cannot be looked up until it catches up. Free space beside the index or run kasa chdu reindex.`,
        { indexRecordNo: mark, headRecordNo: head },
      );
    }
    const tail: JournalRecord[] = [];
    for await (const record of deps.journal.records(mark + 1)) {
      if (record.recordNo > head) break;
      tail.push(record);
    }
    // The index answer and the tail must meet at one mark: everything below is synchronous.
    if (deps.index.highWaterMark() !== mark && attempt < ATTEMPTS) continue;
    const overlay = new TailDocuments(deps.index);
    for (const record of tail) if (record.recordNo > deps.index.highWaterMark()) overlay.apply(record);
    return overlay.answer(query, deps.index.findDocument(query));
  }
}

interface Entry {
  doc: IndexedDocument;
  exchanges: number;
  /** OKPs (lower case) and PKPs this look-up may match beyond what the index already holds. */
  okps: Set<string>;
  pkps: Set<string>;
}

/** Documents as the tail records leave them: new ones, and indexed ones the tail speaks about. */
class TailDocuments {
  readonly #entries = new Map<number, Entry>();

  constructor(private readonly index: DocumentIndex) {}

  apply(record: JournalRecord): void {
    switch (record.type) {
      case 'document':
        this.#entries.set(record.body.documentNo, newEntry(record.recordNo, record.body));
        return;
      case 'sfs-exchange': {
        const x = record.body;
        if (x.subject.kind !== 'document') return;
        this.#update(x.subject.documentNo, (e) => {
          setSend(e, afterExchange(sendTrackOf(e), x));
          e.doc.firstAttemptDate ??= x.requestDate;
        });
        return;
      }
      case 'sfs-attempt': {
        const a = record.body;
        if (a.subject.kind !== 'document') return;
        this.#update(a.subject.documentNo, (e) => {
          setSend(e, afterAttemptStarted(sendTrackOf(e), a));
          e.doc.firstAttemptDate ??= a.requestDate;
        });
        return;
      }
      case 'print':
        this.#update(record.body.documentNo, (e) => {
          const current = {
            printState: e.doc.printState,
            ...(e.doc.lastPrinterCode === undefined ? {} : { lastPrinterCode: e.doc.lastPrinterCode }),
            ...(e.doc.printStarted ? { printStarted: true as const } : {}),
            ...(e.doc.drawerOpened ? { drawerOpened: true as const } : {}),
            ...(e.doc.receiptForm === undefined ? {} : { receiptForm: e.doc.receiptForm }),
          };
          const next = afterPrint(current, record.body);
          e.doc.printState = next.printState;
          if (next.lastPrinterCode === undefined) delete e.doc.lastPrinterCode;
          else e.doc.lastPrinterCode = next.lastPrinterCode;
          if (next.printStarted) e.doc.printStarted = true;
          else delete e.doc.printStarted;
          if (next.drawerOpened) e.doc.drawerOpened = true;
          else delete e.doc.drawerOpened;
          if (next.receiptForm === undefined) delete e.doc.receiptForm;
          else e.doc.receiptForm = next.receiptForm;
        });
        return;
      case 'repair': {
        const r = record.body;
        if (r.subject.kind !== 'document') return;
        this.#update(r.subject.documentNo, (e) => {
          // As the index applies it: a re-dated document keeps its number (ADR 0008 §5).
          e.doc.document = {
            ...e.doc.document,
            ...(r.sfs ? { sfs: r.sfs } : {}),
            ...(r.pkp ? { pkp: r.pkp } : {}),
            ...(r.okp ? { okp: r.okp } : {}),
            ...(r.roundingCents === undefined ? {} : { roundingCents: r.roundingCents }),
            ...(r.merchantRecordNo === undefined ? {} : { merchantRecordNo: r.merchantRecordNo }),
          };
          if (r.okp) e.okps.add(r.okp.toLowerCase());
          if (r.pkp) e.pkps.add(r.pkp);
          setSend(e, afterRepair(sendTrackOf(e), r));
          e.doc.repairedBy = record.recordNo;
        });
        return;
      }
      default:
        return;
    }
  }

  /**
   * The index's answer unless the tail holds a later match (every look-up that may match several
   * documents takes the last one, as the index does); an indexed document the tail changed is
   * answered as the tail left it.
   */
  answer(query: DocumentQuery, fromIndex: IndexedDocument | undefined): IndexedDocument | undefined {
    let best = fromIndex && (this.#entries.get(fromIndex.document.documentNo)?.doc ?? fromIndex);
    for (const e of this.#entries.values()) {
      if (matches(e, query) && (!best || e.doc.document.documentNo > best.document.documentNo)) best = e.doc;
    }
    return best;
  }

  #update(documentNo: number, change: (e: Entry) => void): void {
    let entry = this.#entries.get(documentNo);
    if (!entry) {
      const indexed = this.index.findDocument({ by: 'documentNo', documentNo });
      if (!indexed) return; // as the index: a record about an unknown document changes nothing
      entry = {
        doc: { ...indexed },
        exchanges: indexed.lastExchange ? 1 : 0,
        okps: new Set([indexed.document.okp.toLowerCase()]),
        pkps: new Set([indexed.document.pkp]),
      };
      this.#entries.set(documentNo, entry);
    }
    change(entry);
  }
}

function newEntry(recordNo: number, d: DocumentRecord): Entry {
  return {
    doc: {
      recordNo,
      document: d,
      sendState: d.notSent ? 'not-sent' : NEW_SEND_TRACK.sendState,
      sendingCount: 0,
      printState: NEW_PRINT_TRACK.printState,
    },
    exchanges: 0,
    // OKP is hex, typed in either case (SFS spec §2.2): kept and compared in lower case.
    okps: new Set([d.okp.toLowerCase()]),
    pkps: new Set([d.pkp]),
  };
}

function sendTrackOf(e: Entry): SendTrack {
  const d = e.doc;
  return {
    sendState: d.sendState,
    sendingCount: d.sendingCount,
    exchanges: e.exchanges,
    ...(d.lastExchange ? { lastExchange: d.lastExchange } : {}),
    ...(d.accepted ? { accepted: d.accepted } : {}),
  };
}

function setSend(e: Entry, t: SendTrack): void {
  e.exchanges = t.exchanges;
  e.doc.sendState = t.sendState;
  e.doc.sendingCount = t.sendingCount;
  if (t.lastExchange) e.doc.lastExchange = t.lastExchange;
  if (t.accepted) e.doc.accepted = t.accepted;
}

function matches(e: Entry, q: DocumentQuery): boolean {
  const d = e.doc.document;
  switch (q.by) {
    case 'documentNo':
      return d.documentNo === q.documentNo;
    case 'sequenceId': {
      const m = DOCUMENT_NUMBER.exec(d.documentNumber);
      return !!m && Number(m[1]) === q.year && Number(m[2]) === q.month && Number(m[3]) === q.sequenceId;
    }
    case 'externalId':
      return d.externalId !== undefined && d.externalId === q.externalId;
    case 'okp':
      return e.okps.has(q.okp.toLowerCase());
    case 'pkp':
      return e.pkps.has(q.pkp);
    case 'uuid':
      // The receipt id compares without case (ADR 0113).
      return e.doc.accepted?.id?.toLowerCase() === q.uuid.toLowerCase();
    case 'idempotencyKey':
      return d.idempotency?.key === q.key;
    case 'qrPaymentId':
      return (d.qrPayments ?? []).some((p) => p.id === q.id);
    case 'paragon':
      // ADR 0431: a set-aside paragón holds no key (ADR 0711: never registered).
      return (
        e.doc.sendState !== 'set-aside' &&
        d.sfs.Paragon === 'true' &&
        d.sfs.ParagonNumber !== undefined &&
        d.sfs.IssueDate !== undefined &&
        paragonKey(d.sfs.ParagonNumber, d.sfs.IssueDate) === q.key
      );
    case 'last':
      return true;
  }
}
