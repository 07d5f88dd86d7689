import type { IndexedDocument, IndexedLocation, QueueEntry } from './indexed-records.js';

/**
 * A page of the offline report: items not registered with the SFS (unsent, stuck, or set aside for
 * the tax office — ADR 0711). The report
 * lists the documents first, then the locations, each in creation order; `offset` skips that many
 * items from the start (so, while it stays within the documents, exactly that many documents) and
 * `limit` caps the items returned (docs/offline.md).
 */
export interface OfflineReportQuery {
  /** Only documents with this sequenceId (locations have no number: none are listed). */
  sequenceId?: number;
  /** CreateDate on or after this instant (epoch ms). */
  fromMs?: number;
  /** CreateDate on or before this instant (epoch ms). */
  toMs?: number;
  offset: number;
  limit: number;
}

export interface OfflineReportPage {
  documents: IndexedDocument[];
  locations: IndexedLocation[];
  /** How many items match the filter in all, whatever `offset` and `limit` (ADR 0716). */
  total: number;
}

/** The offline-report role of the journal index (API text: Report API). */
export interface OfflineReportIndex {
  offlineReport(query: OfflineReportQuery): OfflineReportPage;
  /** The oldest item not registered (unsent or stuck), document or location, in creation order. */
  oldestOffline(): QueueEntry | undefined;
}
