import type { IndexedDocument } from './indexed-records.js';
import type { DocumentQuery } from './journal-index.js';

/** The documents role of the journal index: numbering and look-ups (capability 6). */
export interface DocumentIndex {
  /** Highest sequenceId used in the given local month, 0 when none. */
  lastSequenceId(year: number, month: number): number;
  /** Highest documentNo used, 0 when none. */
  lastDocumentNo(): number;
  findDocument(query: DocumentQuery): IndexedDocument | undefined;
  /**
   * The last fiscal document (any type) whose original was neither printed nor delivered
   * electronically (print state `pending` or `failed`). Only the last document counts (no fiscal
   * write follows an unprinted one), and a stuck document is not one: it must not be handed over.
   */
  unprintedDocument(): IndexedDocument | undefined;
}
