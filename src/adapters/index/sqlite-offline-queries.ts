import type Database from 'better-sqlite3';
import type { QueueEntry, SendState } from '../../core/ports/indexed-records.js';
import type { OfflineReportPage, OfflineReportQuery } from '../../core/ports/offline-report-index.js';
import type { QueueSummary } from '../../core/ports/send-queue-index.js';
import {
  type DocRow,
  documentEntry,
  type LocRow,
  locationEntry,
  mergeByRecord,
  toDocument,
  toLocation,
} from './sqlite-index-rows.js';

/**
 * The SQL of the send queue and the offline report (exported so a test can check that each one is
 * an index search, never a scan of all documents — ADR 0700).
 */
export const OFFLINE_QUERIES = {
  unsentDocuments: "SELECT * FROM documents WHERE send_state = 'unsent' ORDER BY document_no LIMIT ?",
  stuckDocuments: "SELECT * FROM documents WHERE send_state = 'stuck' ORDER BY document_no LIMIT ?",
  unsentLocations: "SELECT * FROM locations WHERE send_state = 'unsent' ORDER BY location_no LIMIT ?",
  stuckLocations: "SELECT * FROM locations WHERE send_state = 'stuck' ORDER BY location_no LIMIT ?",
  setAsideDocuments: "SELECT * FROM documents WHERE send_state = 'set-aside' ORDER BY document_no LIMIT ?",
  setAsideLocations: "SELECT * FROM locations WHERE send_state = 'set-aside' ORDER BY location_no LIMIT ?",
  unsentDocumentNumbers:
    "SELECT document_no FROM documents WHERE send_state = 'unsent' ORDER BY document_no LIMIT ?",
  unsentLocationNumbers:
    "SELECT location_no FROM locations WHERE send_state = 'unsent' ORDER BY location_no LIMIT ?",
  anyUnsent: `SELECT EXISTS (SELECT 1 FROM documents WHERE send_state = 'unsent')
    OR EXISTS (SELECT 1 FROM locations WHERE send_state = 'unsent')`,
  countDocuments: 'SELECT COUNT(*) FROM documents WHERE send_state = ?',
  countLocations: 'SELECT COUNT(*) FROM locations WHERE send_state = ?',
  lastDocument: 'SELECT * FROM documents ORDER BY document_no DESC LIMIT 1',
  lastLocation: 'SELECT * FROM locations ORDER BY location_no DESC LIMIT 1',
  lastDocumentState:
    'SELECT document_no AS no, record_no, send_state FROM documents ORDER BY document_no DESC LIMIT 1',
  lastLocationState:
    'SELECT location_no AS no, record_no, send_state FROM locations ORDER BY location_no DESC LIMIT 1',
  documentByNo: 'SELECT * FROM documents WHERE document_no = ?',
  locationByNo: 'SELECT * FROM locations WHERE location_no = ?',
  oldestOfflineDocument:
    "SELECT * FROM documents WHERE send_state IN ('unsent', 'stuck') ORDER BY document_no LIMIT 1",
  oldestOfflineLocation:
    "SELECT * FROM locations WHERE send_state IN ('unsent', 'stuck') ORDER BY location_no LIMIT 1",
  reportDocuments: `SELECT * FROM documents WHERE send_state IN ('unsent', 'stuck', 'set-aside')
    AND (@seq IS NULL OR sequence_id = @seq) AND (@from IS NULL OR create_ms >= @from)
    AND (@to IS NULL OR create_ms <= @to) ORDER BY document_no LIMIT @limit OFFSET @offset`,
  reportDocumentCount: `SELECT COUNT(*) FROM documents WHERE send_state IN ('unsent', 'stuck', 'set-aside')
    AND (@seq IS NULL OR sequence_id = @seq) AND (@from IS NULL OR create_ms >= @from)
    AND (@to IS NULL OR create_ms <= @to)`,
  reportLocations: `SELECT * FROM locations WHERE send_state IN ('unsent', 'stuck', 'set-aside')
    AND (@from IS NULL OR create_ms >= @from) AND (@to IS NULL OR create_ms <= @to)
    ORDER BY location_no LIMIT @limit OFFSET @offset`,
  reportLocationCount: `SELECT COUNT(*) FROM locations WHERE send_state IN ('unsent', 'stuck', 'set-aside')
    AND (@from IS NULL OR create_ms >= @from) AND (@to IS NULL OR create_ms <= @to)`,
} as const;

/** The newest document's or location's number, record number and state (no body, no conversion). */
interface LastState {
  no: number;
  record_no: number;
  send_state: SendState;
}

const PLUCKED = ['unsentDocumentNumbers', 'unsentLocationNumbers', 'anyUnsent'] as const;

/** The queue and report queries of SqliteJournalIndex, on its database. */
export class SqliteOfflineQueries {
  private readonly q;

  constructor(db: Database.Database) {
    this.q = Object.fromEntries(
      Object.entries(OFFLINE_QUERIES).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as { [K in keyof typeof OFFLINE_QUERIES]: Database.Statement };
    // Single-column answers, plucked once here rather than switched on each call.
    for (const name of PLUCKED) this.q[name].pluck();
  }

  unsentDocuments(limit = -1) {
    return (this.q.unsentDocuments.all(limit) as DocRow[]).map(toDocument);
  }

  stuckDocuments(limit = -1) {
    return (this.q.stuckDocuments.all(limit) as DocRow[]).map(toDocument);
  }

  unsentLocations(limit = -1) {
    return (this.q.unsentLocations.all(limit) as LocRow[]).map(toLocation);
  }

  stuckLocations(limit = -1) {
    return (this.q.stuckLocations.all(limit) as LocRow[]).map(toLocation);
  }

  setAsideItems(limit: number): QueueEntry[] {
    if (limit <= 0) return [];
    const docs = (this.q.setAsideDocuments.all(limit) as DocRow[]).map(documentEntry);
    const locs = (this.q.setAsideLocations.all(limit) as LocRow[]).map(locationEntry);
    return mergeByRecord(docs, locs, limit);
  }

  sendQueue(limit: number): QueueEntry[] {
    if (limit <= 0) return [];
    const docs = (this.q.unsentDocuments.all(limit) as DocRow[]).map(documentEntry);
    const locs = (this.q.unsentLocations.all(limit) as LocRow[]).map(locationEntry);
    return mergeByRecord(docs, locs, limit);
  }

  hasUnsent(): boolean {
    return this.q.anyUnsent.get() === 1;
  }

  unsentNumbers(limit: number): { documents: number[]; locations: number[] } {
    if (limit <= 0) return { documents: [], locations: [] };
    return {
      documents: this.q.unsentDocumentNumbers.all(limit) as number[],
      locations: this.q.unsentLocationNumbers.all(limit) as number[],
    };
  }

  queueSummary(): QueueSummary {
    const count = (stmt: Database.Statement, state: string) => Number(stmt.pluck().get(state) ?? 0);
    const oldest = this.oldestOffline();
    return {
      unsentDocuments: count(this.q.countDocuments, 'unsent'),
      unsentLocations: count(this.q.countLocations, 'unsent'),
      stuckDocuments: count(this.q.countDocuments, 'stuck'),
      stuckLocations: count(this.q.countLocations, 'stuck'),
      setAsideDocuments: count(this.q.countDocuments, 'set-aside'),
      setAsideLocations: count(this.q.countLocations, 'set-aside'),
      ...(oldest ? { oldest } : {}),
    };
  }

  lastStoredRequest(): QueueEntry | undefined {
    const doc = this.q.lastDocument.get() as DocRow | undefined;
    const loc = this.q.lastLocation.get() as LocRow | undefined;
    if (doc && (!loc || doc.record_no > loc.record_no)) return documentEntry(doc);
    return loc ? locationEntry(loc) : undefined;
  }

  /**
   * The last stored request when it is stuck, else undefined (ADR 0701): the same item
   * {@link lastStoredRequest} names, but only its number, record number and state are read unless
   * it is stuck — every fiscal write asks this, and the answer is almost always "not stuck" (ADR 1113).
   */
  stuckLastRequest(): QueueEntry | undefined {
    const doc = this.q.lastDocumentState.get() as LastState | undefined;
    const loc = this.q.lastLocationState.get() as LastState | undefined;
    if (doc && (!loc || doc.record_no > loc.record_no)) {
      if (doc.send_state !== 'stuck') return undefined;
      const row = this.q.documentByNo.get(doc.no) as DocRow | undefined;
      return row ? documentEntry(row) : undefined;
    }
    if (loc?.send_state !== 'stuck') return undefined;
    const row = this.q.locationByNo.get(loc.no) as LocRow | undefined;
    return row ? locationEntry(row) : undefined;
  }

  oldestOffline(): QueueEntry | undefined {
    const doc = this.q.oldestOfflineDocument.get() as DocRow | undefined;
    const loc = this.q.oldestOfflineLocation.get() as LocRow | undefined;
    return mergeByRecord(doc ? [documentEntry(doc)] : [], loc ? [locationEntry(loc)] : [], 1)[0];
  }

  offlineReport(query: OfflineReportQuery): OfflineReportPage {
    const filter = {
      seq: query.sequenceId ?? null,
      from: query.fromMs ?? null,
      to: query.toMs ?? null,
    };
    const documents = (
      this.q.reportDocuments.all({ ...filter, limit: query.limit, offset: query.offset }) as DocRow[]
    ).map(toDocument);
    const documentCount = Number(this.q.reportDocumentCount.pluck().get(filter) ?? 0);
    // Locations carry no sequenceId: a sequenceId filter lists documents only.
    const locationCount =
      query.sequenceId !== undefined
        ? 0
        : Number(this.q.reportLocationCount.pluck().get({ from: filter.from, to: filter.to }) ?? 0);
    const total = documentCount + locationCount;
    const room = query.limit - documents.length;
    if (room <= 0 || locationCount === 0) return { documents, locations: [], total };
    const locations = (
      this.q.reportLocations.all({
        from: filter.from,
        to: filter.to,
        limit: room,
        offset: Math.max(0, query.offset - documentCount),
      }) as LocRow[]
    ).map(toLocation);
    return { documents, locations, total };
  }
}
