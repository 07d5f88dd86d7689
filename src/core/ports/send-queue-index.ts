import type { IndexedDocument, IndexedLocation, QueueEntry } from './indexed-records.js';

/** Counts of what waits, and the oldest item, for status and the sender (no full scans). */
export interface QueueSummary {
  unsentDocuments: number;
  unsentLocations: number;
  stuckDocuments: number;
  stuckLocations: number;
  /** The oldest unsent item (document or location) in creation order. */
  oldestUnsent?: QueueEntry;
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
  /** The first `limit` items of the send queue: unsent documents and locations in creation order. */
  sendQueue(limit: number): QueueEntry[];
  queueSummary(): QueueSummary;
  /**
   * The last stored request: the document or location with the highest record number. While it
   * is stuck, CHDÚ-writing requests answer 501 (DECISIONS 17, ADR 0701).
   */
  lastStoredRequest(): QueueEntry | undefined;
}
