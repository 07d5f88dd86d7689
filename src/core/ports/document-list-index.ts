import type { ReceiptType } from '../sfs/message.js';
import type { IndexedDocument, SendState } from './journal-index.js';

/** Which documents a list or a report reads (every member optional). */
export interface DocumentRange {
  /** Created at or after this instant (the document's CreateDate). */
  from?: Date;
  /** Created before this instant. */
  to?: Date;
  /** Only these types. */
  types?: readonly ReceiptType[];
  /** Only documents in these SFS states (e.g. `unsent`, `stuck` for the offline view). */
  sendStates?: readonly SendState[];
}

/**
 * The document-list role of the journal index (capability 12): pages of documents newest first for
 * the admin page, and every document of a period for the daily summary. Derived from the CHDÚ
 * like the rest of the index; both read-only.
 */
export interface DocumentListIndex {
  /**
   * Up to `limit` documents of the range, highest `documentNo` first, all below `beforeDocumentNo`
   * when given (the cursor of the previous page).
   */
  listDocuments(range: DocumentRange, page: { limit: number; beforeDocumentNo?: number }): IndexedDocument[];
  /** How many documents the range holds (to bound a report before it is computed). */
  countDocuments(range: DocumentRange): number;
  /** Every document of the range, oldest first. */
  documentsIn(range: DocumentRange): IndexedDocument[];
}
