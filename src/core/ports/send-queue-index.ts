import type { IndexedDocument, IndexedLocation, QueueEntry } from './indexed-records.js';

/** Counts of what waits, and the oldest item, for status and the sender (no full scans). */
export interface QueueSummary {
  unsentDocuments: number;
  unsentLocations: number;
  stuckDocuments: number;
  stuckLocations: number;
  /** Set aside for the tax office (ADR 0711): never sent again, listed in the report and status. */
  setAsideDocuments: number;
  setAsideLocations: number;
  /**
   * The oldest item not registered — unsent or stuck — in creation order: the resend deadline is
   * read from it (a stuck item must reach the SFS too, ADR 0702), and it is the item
   * `GET /api/report/offline/oldest` answers (`OfflineReportIndex.oldestOffline`).
   */
  oldest?: QueueEntry;
}

/**
 * The send-queue role of the journal index (ADR 0700): every document and location not yet
 * registered, in creation (journal record) order, and the stuck ones that wait for repair.
 * Every answer comes from indexed columns (`send_state`, record order), never a scan of all
 * documents, so a queue of 10,000 stays cheap to read.
 */
export interface SendQueueIndex {
  /** Documents not yet accepted by the SFS (offline or never sent), oldest first. */
  unsentDocuments(limit?: number): IndexedDocument[];
  /** Documents the SFS rejected that wait for repair, oldest first. */
  stuckDocuments(limit?: number): IndexedDocument[];
  unsentLocations(limit?: number): IndexedLocation[];
  stuckLocations(limit?: number): IndexedLocation[];
  /** Items set aside for the tax office (ADR 0711), documents and locations in creation order. */
  setAsideItems(limit: number): QueueEntry[];
  /** The first `limit` items of the send queue: unsent documents and locations in creation order. */
  sendQueue(limit: number): QueueEntry[];
  /**
   * Whether anything is in the send queue (an unsent document or location), answered from the
   * indexed state column without reading a row: the background sender asks it after every online
   * success before it starts a batch, so a POS storing online pays next to nothing (capability 13).
   */
  hasUnsent(): boolean;
  /**
   * The numbers of the first `limit` unsent documents and the first `limit` unsent locations, each
   * in creation order, read from the indexed state column alone (no row is read or converted). The
   * background sender's idle look: with `limit` one more than the items claimed by requests in
   * flight, an item nobody claims is among them whenever one waits (capability 13).
   */
  unsentNumbers(limit: number): { documents: number[]; locations: number[] };
  queueSummary(): QueueSummary;
  /**
   * The last stored request: the document or location with the highest record number. While it
   * is stuck, CHDÚ-writing requests answer 501 (ADR 0008 §17, ADR 0701).
   */
  lastStoredRequest(): QueueEntry | undefined;
  /**
   * {@link lastStoredRequest} when it is stuck, else undefined: the check every CHDÚ-writing
   * request makes (ADR 0701). Reads the item itself only when it is stuck, so the usual answer
   * ("not stuck") costs no row conversion (capability 13).
   */
  stuckLastRequest(): QueueEntry | undefined;
}
